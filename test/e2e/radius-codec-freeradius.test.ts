/**
 * The RADIUS codec (src/radius/) against Debian's FreeRADIUS 3.2 and its radclient, in plain Node over loopback
 * TCP (RFC 6613): radiusd accepts the Access-Requests it writes (PAP and CHAP, Message-Authenticator required),
 * signs answers the codec verifies, writes its Accounting-Requests to the detail file with the values sent,
 * and drops what a wrong shared secret signed; radclient accepts an answer the codec signed and sends a
 * password the codec reads back. Expected values are the test's inputs and FreeRADIUS's own reading of them.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodePacket, packetLength, type Packet } from "../../src/radius/packet.ts";
import { CODE } from "../../src/radius/dictionary.ts";
import {
  accessRequest,
  acceptedAttributes,
  nasAccountingRequest,
  sessionAccountingRequest,
  type SessionAccounting,
} from "../../src/radius/messages.ts";
import { revealPassword, signRequest, signResponse, verifyResponse } from "../../src/radius/signing.ts";
import { attribute, readText } from "../../src/radius/values.ts";
import { startFreeRadius, type FreeRadius } from "../../scripts/harness/freeradius.ts";
import { freePortBase } from "../../scripts/harness/fleet-process.ts";

const SECRET = "fleet-secret-1";
const NAS = { identifier: "edge-1", ipAddress: "10.0.0.1" };
const USERS = `alice	Cleartext-Password := "wonderland"
	Framed-IP-Address = 100.64.0.9,
	Framed-Pool = "residential",
	Session-Timeout = 7200,
	Acct-Interim-Interval = 300,
	Alc-SLA-Prof-Str = "fibre-300"
bob	Cleartext-Password := "builder"
DEFAULT	Auth-Type := Reject
	Reply-Message = "unknown subscriber"
`;

/** One RADIUS/TCP exchange: writes the request, reads one packet (by its Length) or null after `timeoutMs`. */
async function exchange(port: number, bytes: Uint8Array, timeoutMs = 2000): Promise<Uint8Array | null> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  try {
    socket.write(bytes);
    return await readPacket(socket, timeoutMs);
  } finally {
    socket.destroy();
  }
}

function readPacket(socket: Socket, timeoutMs: number): Promise<Uint8Array | null> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => done(null), timeoutMs);
    const done = (value: Uint8Array | null) => {
      clearTimeout(timer);
      socket.off("data", onData);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= 4 && buffered.length >= packetLength(buffered))
        done(new Uint8Array(buffered.subarray(0, packetLength(buffered))));
    };
    socket.on("data", onData);
    socket.once("close", () => done(null));
  });
}

const decode = (bytes: Uint8Array): Packet => {
  const result = decodePacket(bytes);
  if (!result.ok) throw new Error(result.reason);
  return result.packet;
};

let radius: FreeRadius;
let authPort: number;
let acctPort: number;

beforeAll(async () => {
  authPort = await freePortBase(2);
  acctPort = authPort + 1;
  radius = await startFreeRadius({ authPort, acctPort, secret: SECRET, users: USERS });
});

afterAll(async () => {
  await radius?.stop();
});

describe("Access-Request to FreeRADIUS over TCP", () => {
  const subscriber = {
    sessionId: "77",
    nasPortId: "xe-0/0/0:100-7",
    callingStationId: "00:1b:21:00:00:07",
    ppp: false,
    virtualPort: false,
  };

  it("PAP: accepts alice and hands back what her users entry sets, the plan in Alc-SLA-Prof-Str", async () => {
    const request = accessRequest(
      NAS,
      { ...subscriber, username: "alice", password: "wonderland", method: "pap" },
      SECRET,
      1,
    );
    const answer = await exchange(authPort, signRequest(request, SECRET));
    expect(answer).not.toBeNull();
    expect(verifyResponse(answer!, request.authenticator, SECRET)).toEqual({ ok: true });
    const packet = decode(answer!);
    expect(packet.code).toBe(CODE["Access-Accept"]);
    expect(acceptedAttributes(packet)).toEqual({
      framedIpAddress: "100.64.0.9",
      framedPool: "residential",
      sessionTimeout: 7200,
      interimInterval: 300,
      plan: "fibre-300",
    });
  });

  it(
    "CHAP: accepts bob, as PPP's CHAP does (FreeRADIUS checks CHAP-Password against " + "his Cleartext-Password)",
    async () => {
      const request = accessRequest(
        NAS,
        { ...subscriber, username: "bob", password: "builder", method: "chap", ppp: true },
        SECRET,
        2,
      );
      const answer = await exchange(authPort, signRequest(request, SECRET));
      expect(decode(answer!).code).toBe(CODE["Access-Accept"]);
      expect(verifyResponse(answer!, request.authenticator, SECRET)).toEqual({ ok: true });
    },
  );

  it("rejects a wrong password and an unknown user, with the users file's Reply-Message", async () => {
    for (const [username, password] of [
      ["bob", "nobody"],
      ["mallory", "x"],
    ] as const) {
      const request = accessRequest(NAS, { ...subscriber, username, password, method: "chap", ppp: true }, SECRET, 3);
      const answer = await exchange(authPort, signRequest(request, SECRET));
      const packet = decode(answer!);
      expect(packet.code).toBe(CODE["Access-Reject"]);
      expect(verifyResponse(answer!, request.authenticator, SECRET)).toEqual({ ok: true });
      if (username === "mallory")
        expect(readText(packet.attributes.find((a) => a.type === 18)!.value)).toBe("unknown subscriber");
    }
  });

  it("drops a request signed with another secret without answering, and says why in its log", async () => {
    const request = accessRequest(
      NAS,
      { ...subscriber, username: "alice", password: "wonderland", method: "pap" },
      "not-the-secret",
      4,
    );
    expect(await exchange(authPort, signRequest(request, "not-the-secret"), 1500)).toBeNull();
    await expect
      .poll(() => radius.log(), { timeout: 5000 })
      .toMatch(/invalid Message-Authenticator!\s+\(Shared secret is incorrect\.\)/);
  });
});

describe("Accounting-Request to FreeRADIUS over TCP", () => {
  const record: SessionAccounting = {
    status: "Stop",
    sessionId: "4711",
    username: "alice",
    framedIpAddress: "100.64.0.9",
    framedIpv6Address: "2001:db8::9",
    delegatedIpv6Prefix: "2001:db8:1200::/56",
    nasPortId: "xe-0/0/0:100-7",
    callingStationId: "00:1b:21:00:00:07",
    ppp: true,
    sessionTimeSeconds: 3725,
    inputOctets: 7 * 2 ** 32 + 1234,
    outputOctets: 98765,
    inputPackets: 5000,
    outputPackets: 6000,
    terminateCause: 2,
    eventMs: Date.UTC(2026, 2, 2, 9, 30, 0),
  };

  it(
    "is answered with an Accounting-Response FreeRADIUS signed, and its detail file " + "holds the values sent",
    async () => {
      const request = sessionAccountingRequest(NAS, record, 3, 9);
      const bytes = signRequest(request, SECRET);
      const answer = await exchange(acctPort, bytes);
      expect(decode(answer!).code).toBe(CODE["Accounting-Response"]);
      expect(verifyResponse(answer!, bytes.slice(4, 20), SECRET)).toEqual({ ok: true });
      const written = (await radius.records()).find((r) => r["Acct-Session-Id"] === "4711")!;
      expect(written).toMatchObject({
        "Acct-Status-Type": "Stop",
        "User-Name": "alice",
        "NAS-Identifier": "edge-1",
        "NAS-IP-Address": "10.0.0.1",
        "NAS-Port-Id": "xe-0/0/0:100-7",
        "Calling-Station-Id": "00:1b:21:00:00:07",
        "Framed-IP-Address": "100.64.0.9",
        "Framed-IPv6-Address": "2001:db8::9",
        "Delegated-IPv6-Prefix": "2001:db8:1200::/56",
        "Acct-Session-Time": "3725",
        "Acct-Input-Octets": "1234",
        "Acct-Input-Gigawords": "7",
        "Acct-Output-Octets": "98765",
        "Acct-Output-Gigawords": "0",
        "Acct-Input-Packets": "5000",
        "Acct-Output-Packets": "6000",
        "Acct-Terminate-Cause": "Lost-Carrier",
        "Acct-Delay-Time": "3",
        "Framed-Protocol": "PPP",
        "Service-Type": "Framed-User",
      });
      // FreeRADIUS writes Event-Timestamp in local time; its own Timestamp line is when it received the request.
      expect(written["Event-Timestamp"]).toMatch(/2026/);
    },
  );

  it("takes Accounting-On", async () => {
    const bytes = signRequest(
      nasAccountingRequest(NAS, "Accounting-On", "boot-1", Date.UTC(2026, 2, 2, 9), 10),
      SECRET,
    );
    expect(decode((await exchange(acctPort, bytes))!).code).toBe(CODE["Accounting-Response"]);
    expect(
      (await radius.records()).some(
        (r) => r["Acct-Status-Type"] === "Accounting-On" && r["Acct-Session-Id"] === "boot-1",
      ),
    ).toBe(true);
  });

  it("drops one whose Request Authenticator another secret computed", async () => {
    const bytes = signRequest(sessionAccountingRequest(NAS, { ...record, sessionId: "4712" }, 0, 11), "not-the-secret");
    expect(await exchange(acctPort, bytes, 1500)).toBeNull();
    expect((await radius.records()).some((r) => r["Acct-Session-Id"] === "4712")).toBe(false);
  });
});

describe("radclient against the codec's server side", () => {
  it("sends a password the codec reveals, and accepts an Access-Accept the codec signed", async () => {
    const server = createServer((socket) => {
      socket.on("data", (chunk: Buffer) => {
        const request = decode(new Uint8Array(chunk));
        const password = revealPassword(
          request.attributes.find((a) => a.type === 2)!.value,
          request.authenticator,
          SECRET,
        );
        const reply = {
          code: password === "carrot" ? CODE["Access-Accept"] : CODE["Access-Reject"],
          identifier: request.identifier,
          authenticator: request.authenticator,
          attributes: [attribute("Session-Timeout", Uint8Array.of(0, 0, 0x0e, 0x10))],
        };
        socket.write(signResponse(reply, request.authenticator, SECRET));
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const port = (server.address() as { port: number }).port;
    try {
      const run = (password: string) =>
        new Promise<string>((resolve) => {
          const child = spawn("radclient", [
            "-P",
            "tcp",
            "-x",
            "-t",
            "2",
            "-r",
            "1",
            `127.0.0.1:${port}`,
            "auth",
            SECRET,
          ]);
          let out = "";
          child.stdout.on("data", (c) => (out += c));
          child.stderr.on("data", (c) => (out += c));
          child.on("close", () => resolve(out));
          child.stdin.end(`User-Name = "rabbit", User-Password = "${password}"\n`);
        });
      const accepted = await run("carrot");
      expect(accepted).toMatch(/Received Access-Accept/);
      expect(accepted).toMatch(/Session-Timeout = 3600/);
      expect(await run("lettuce")).toMatch(/Received Access-Reject/);
    } finally {
      server.close();
    }
  });
});
