/**
 * An SMTP submission client (RFC 5321, RFC 6409): EHLO, STARTTLS (RFC 3207)
 * or TLS from the start, AUTH PLAIN (RFC 4616) or LOGIN with the sink's
 * credential, MAIL FROM, RCPT TO, DATA with dot-stuffing, QUIT. Never sends a
 * password or a message in the clear: a server on smtp: that offers no
 * STARTTLS is not written to. Deployed Workers cannot connect to port 25
 * (docs/observability.md), so submission on 587 is the default.
 */
import type { SmtpSink } from "../../src/config/sink-urls.ts";
import type { Attempt } from "./attempt.ts";
import { Wire } from "./wire.ts";

interface Reply {
  code: number;
  lines: string[];
}

/** A reply the conversation cannot go on from: 4xx may pass (retried), 5xx will not. */
class Refusal extends Error {
  readonly reply: Reply;
  constructor(step: string, reply: Reply) {
    super(`${step}: ${reply.code} ${reply.lines.join(" / ").slice(0, 200)}`);
    this.reply = reply;
  }
}

/** A reply's lines at most (an EHLO answer has one per extension: a dozen or two). */
const MAX_REPLY_LINES = 100;

async function reply(wire: Wire): Promise<Reply> {
  const lines: string[] = [];
  for (;;) {
    if (lines.length === MAX_REPLY_LINES) throw new Error(`a reply of more than ${MAX_REPLY_LINES} lines`);
    const line = await wire.readLine();
    const match = /^(\d{3})([ -]?)(.*)$/.exec(line);
    if (!match) throw new Error(`not an SMTP reply: ${line.slice(0, 80)}`);
    lines.push(match[3]!);
    if (match[2] !== "-") return { code: Number(match[1]), lines };
  }
}

async function expect(wire: Wire, step: string, ...codes: number[]): Promise<Reply> {
  const answer = await reply(wire);
  if (!codes.includes(answer.code)) throw new Refusal(step, answer);
  return answer;
}

async function command(wire: Wire, line: string, step: string, ...codes: number[]): Promise<Reply> {
  await wire.write(`${line}\r\n`);
  return expect(wire, step, ...codes);
}

const base64 = (text: string) => {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
};

/** RFC 5321 §4.5.2: a line that starts with a dot gets another; the message ends with CRLF.CRLF. */
export const dotStuffed = (message: string) =>
  `${message
    .replace(/\r?\n/g, "\r\n")
    .replace(/(^|\r\n)\./g, "$1..")
    .replace(/(\r\n)?$/, "\r\n")}.\r\n`;

/** The EHLO keywords (upper case) with their parameters. */
const capabilities = (ehlo: Reply) =>
  new Map(
    ehlo.lines.slice(1).map((l) => [
      l.split(" ")[0]!.toUpperCase(),
      l
        .split(" ")
        .slice(1)
        .map((p) => p.toUpperCase()),
    ]),
  );

export interface Mail {
  /** The client's name in EHLO. */
  helo: string;
  message: string;
}

/** Submits `mail` to the sink's server; the outcome says whether another attempt could succeed. */
export async function submit(
  url: string,
  sink: SmtpSink,
  password: string | null,
  allowlist: readonly string[],
  mail: Mail,
  timeoutMs: number,
): Promise<Attempt> {
  const wire = await Wire.open(
    url,
    "smtp",
    allowlist,
    sink.defaultPort,
    sink.implicitTls ? "on" : "starttls",
    timeoutMs,
  );
  try {
    await expect(wire, "greeting", 220);
    let ehlo = await command(wire, `EHLO ${mail.helo}`, "EHLO", 250);
    if (!sink.implicitTls) {
      if (!capabilities(ehlo).has("STARTTLS"))
        return {
          ok: false,
          permanent: true,
          cause: "the server offers no STARTTLS (smtp: never sends in the clear; smtps: is TLS from the start)",
        };
      await command(wire, "STARTTLS", "STARTTLS", 220);
      await wire.startTls();
      // RFC 3207 §4.2: what the server said before TLS is forgotten; ask again.
      ehlo = await command(wire, `EHLO ${mail.helo}`, "EHLO", 250);
    }
    if (sink.username !== null) {
      const mechanisms = capabilities(ehlo).get("AUTH") ?? [];
      if (mechanisms.includes("PLAIN")) {
        await command(wire, `AUTH PLAIN ${base64(`\u0000${sink.username}\u0000${password ?? ""}`)}`, "AUTH PLAIN", 235);
      } else if (mechanisms.includes("LOGIN")) {
        await command(wire, "AUTH LOGIN", "AUTH LOGIN", 334);
        await command(wire, base64(sink.username), "AUTH LOGIN", 334);
        await command(wire, base64(password ?? ""), "AUTH LOGIN", 235);
      } else {
        return { ok: false, permanent: true, cause: "the server offers neither AUTH PLAIN nor AUTH LOGIN" };
      }
    }
    await command(wire, `MAIL FROM:<${sink.from}>`, "MAIL FROM", 250);
    for (const to of sink.to) await command(wire, `RCPT TO:<${to}>`, "RCPT TO", 250, 251);
    await command(wire, "DATA", "DATA", 354);
    await wire.write(dotStuffed(mail.message));
    await expect(wire, "end of data", 250);
    // The message is accepted: a QUIT the server does not answer changes nothing.
    await command(wire, "QUIT", "QUIT", 221).catch(() => undefined);
    return { ok: true };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, permanent: error.reply.code >= 500, cause: error.message };
    return {
      ok: false,
      permanent: false,
      cause: wire.timedOut ? "no answer in time" : error instanceof Error ? error.message : String(error),
    };
  } finally {
    await wire.close();
  }
}
