/**
 * Issue #22: the ACME client goes only where the destination policy allows
 * (src/config/destinations.ts) — the directory URL and every URL the
 * directory or an answer names — follows no redirect, and lets nothing the
 * CA says verbatim into the log read-only accounts read.
 *
 * The CA is `https://ca.test`, a name the appliance's own fetch is pointed at
 * the loopback stand-in (test/worker/peer-server.ts, `/echo`: each answer is
 * what its query says) by a spy on `fetch` below the policy: what reaches the
 * network is still decided by the appliance, and anything that leaks to
 * `/trap/<name>` is counted there.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { Appliance } from "../../durable-objects/appliance.ts";
import { bearer, call, tokenWithRole } from "./client.ts";
import { LOOPBACK_ALLOWED, commit, logEntries } from "./config-client.ts";

const port = inject("peerServerPort");
const loopback = `127.0.0.1:${port}`;
const CA = "https://ca.test";
const settled = () =>
  runInDurableObject(env.Appliance.getByName("edge-1"), (instance) => Appliance.coreOf(instance).acme().settled());
/** How many requests reached the loopback trap `name`. */
const hits = async (name: string) =>
  (await (await fetch(`http://${loopback}/hits/${name}`)).json<{ hits: number }>()).hits;
/** A URL of the fake CA answering as told. */
const answer = (query: Record<string, string>) => `${CA}/echo?${new URLSearchParams(query)}`;
const directory = (resources: Record<string, string>) => answer({ body: JSON.stringify(resources) });
const nonce = answer({ nonce: "n0nce" });

const real = globalThis.fetch;
beforeEach(() => {
  vi.spyOn(globalThis, "fetch").mockImplementation((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    // Only the CA's name is pointed at the stand-in; the request keeps its own init (method, body, redirect mode).
    return url.hostname === "ca.test"
      ? real(`http://${loopback}${url.pathname}${url.search}`, init)
      : real(input, init);
  });
});
afterEach(() => vi.restoreAllMocks());

/** Enables ACME against `directoryUrl` and waits for the attempt to end. */
async function attempt(directoryUrl: string, fields: Record<string, string> = {}) {
  await commit({ fields: { "acme.directoryUrl": directoryUrl, "acme.enabled": "true", ...fields } });
  await settled();
  const [failed] = await logEntries("acme.order.failed");
  return String(failed?.fields.error);
}

describe("URLs the ACME directory names", () => {
  it.each([
    ["a loopback address not allowlisted", (trap: string) => `https://${loopback}/trap/${trap}/nonce`, {}],
    [
      "plain http, even to an allowlisted loopback address",
      (trap: string) => `http://${loopback}/trap/${trap}/nonce`,
      LOOPBACK_ALLOWED,
    ],
    ["plain http to a public name", () => "http://ca.test/echo", {}],
    ["a private address", () => "https://10.1.2.3/acme/new-nonce", {}],
    ["a cloud metadata address", () => "http://169.254.169.254/latest/meta-data/", LOOPBACK_ALLOWED],
  ])("newNonce at %s is refused and nothing is sent there", async (_, url, fields) => {
    const trap = crypto.randomUUID();
    const error = await attempt(
      directory({ newNonce: url(trap), newAccount: answer({}), newOrder: answer({}) }),
      fields,
    );
    expect(error).toContain("newNonce is not an allowed destination");
    expect(await hits(trap)).toBe(0);
    expect(vi.mocked(globalThis.fetch).mock.calls.map(([input]) => String(input))).not.toContain(url(trap));
  });

  it("newAccount at a loopback address is refused and nothing is sent there", async () => {
    const trap = crypto.randomUUID();
    const error = await attempt(
      directory({ newNonce: nonce, newAccount: `https://${loopback}/trap/${trap}/account`, newOrder: answer({}) }),
    );
    expect(error).toContain("newAccount is not an allowed destination");
    expect(await hits(trap)).toBe(0);
  });

  it("a redirect from the directory is answered as a failure, never followed", async () => {
    const trap = crypto.randomUUID();
    // Allowlisted and over https, so only the redirect itself is at stake: the Location is the stand-in's trap.
    const error = await attempt(
      answer({ status: "302", location: `http://${loopback}/trap/${trap}/dir` }),
      LOOPBACK_ALLOWED,
    );
    expect(error).toMatch(/the directory https:\/\/ca\.test\/echo\S* answered 302/);
    expect(await hits(trap)).toBe(0);
  });
});

describe("what the CA says, in the log", () => {
  it("a refusal reaches a read-only reader as its status and RFC 8555 error type, never the CA's detail", async () => {
    const error = await attempt(
      directory({ newNonce: nonce, newAccount: `${CA}/problem?type=urn`, newOrder: answer({}) }),
    );
    expect(error).toBe("newAccount answered 400 urn:ietf:params:acme:error:malformed");
    const reader = bearer(await tokenWithRole("read-only"));
    const tail = await call("/api/v1/logs/tail?limit=500", { headers: reader });
    expect(tail.status).toBe(200);
    const text = await tail.text();
    expect(text).toContain("acme.order.failed");
    expect(text).not.toContain("hunter2");
    const details = await call("/api/v1/config/webui/certificate", { headers: reader });
    expect(await details.text()).not.toContain("hunter2");
  });

  it("an error type that is not an ACME URN is left out", async () => {
    expect(await attempt(directory({ newNonce: nonce, newAccount: `${CA}/problem`, newOrder: answer({}) }))).toBe(
      "newAccount answered 400",
    );
  });
});
