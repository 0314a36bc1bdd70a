/**
 * One RADIUS/TCP (RFC 6613) or RADIUS/TLS (RFC 6614) connection to a server port, from the runtime's own
 * sockets through the outbound policy (outbound-socket.ts): packets written back to back and read by their
 * Length field (RFC 6613 §2.6.1), up to 256 requests outstanding (one per Identifier, §2.6.5), each answered or
 * failed within its timeout. A request is never sent twice on one connection (TCP is reliable: §2.6.1); an
 * unanswered one fails and the client tries the next server. An answer whose authenticator does not verify is
 * the shared secret differing, and fails its request so (RFC 2865 §3 has the client discard it).
 * Anything malformed closes the connection (RFC 6613 §2.6.4).
 */
import { decodePacket, packetLength, type Packet } from "../../src/radius/packet.ts";
import { CODE, HEADER, MAX_PACKET } from "../../src/radius/dictionary.ts";
import { signRequest, verifyResponse } from "../../src/radius/signing.ts";
import { outboundConnect } from "../outbound-socket.ts";

/** Why a request got no usable answer. */
export type FailureReason =
  /** The connection could not be opened (refused, unreachable, TLS failed, or the policy refused the host). */
  | "connect-failed"
  /** The server closed the connection before answering. */
  | "closed"
  /** No answer within the timeout on an open connection that has answered before: a slow or overloaded server. */
  | "timeout"
  /**
   * The secrets differ: an answer whose Response Authenticator or Message-Authenticator does not verify, or a server
   * that took the connection and answers nothing on it (it discards what it cannot verify: `#unanswered`).
   */
  | "secret-mismatch";

export type Answer = { ok: true; packet: Packet } | { ok: false; reason: FailureReason; cause: string };

export interface ConnectionTarget {
  host: string;
  port: number;
  tls: boolean;
  secret: string;
}

const RESPONSES: ReadonlySet<number> = new Set([
  CODE["Access-Accept"],
  CODE["Access-Reject"],
  CODE["Access-Challenge"],
  CODE["Accounting-Response"],
]);

interface Pending {
  /** The request's authenticator, which its answer is verified with (set once it is signed). */
  authenticator: Uint8Array;
  resolve: (answer: Answer) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class RadiusConnection {
  readonly target: ConnectionTarget;
  readonly #allowlist: readonly string[];
  #socket: Socket | null = null;
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  #opening: Promise<void> | null = null;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #closed = false;
  /** Answers that verified on any connection to this server with this secret (shared by its connections). */
  readonly #answered: { count: number };

  constructor(target: ConnectionTarget, allowlist: readonly string[], answered: { count: number } = { count: 0 }) {
    this.#answered = answered;
    this.target = target;
    this.#allowlist = allowlist;
  }

  /** Requests awaiting their answer. */
  get outstanding(): number {
    return this.#pending.size;
  }

  /** Whether another request can be sent now (an Identifier is free). */
  get hasRoom(): boolean {
    return !this.#closed && this.#pending.size < 256;
  }

  /** Whether the connection has been closed for good (a new one is needed). */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Signs and sends one request built by `build` for the Identifier given, and resolves with its answer or why
   * there is none. Never rejects.
   */
  async send(build: (identifier: number) => Packet, timeoutMs: number): Promise<Answer> {
    if (!this.hasRoom) return { ok: false, reason: "closed", cause: "no identifier free on the connection" };
    // The Identifier is taken now, before the connection is open: `hasRoom` counts it for the next caller.
    const identifier = this.#freeIdentifier();
    let resolve!: (answer: Answer) => void;
    const answered = new Promise<Answer>((r) => (resolve = r));
    const pending: Pending = { authenticator: new Uint8Array(16), resolve, timer: undefined };
    this.#pending.set(identifier, pending);
    try {
      await this.#open();
    } catch (error) {
      this.#settle(identifier, {
        ok: false,
        reason: "connect-failed",
        cause: error instanceof Error ? error.message : String(error),
      });
      this.close();
      return answered;
    }
    if (this.#closed || !this.#writer || this.#pending.get(identifier) !== pending) {
      this.#settle(identifier, { ok: false, reason: "closed", cause: "connection closed" });
      return answered;
    }
    const bytes = signRequest(build(identifier), this.target.secret);
    pending.authenticator = bytes.slice(4, 20);
    pending.timer = setTimeout(() => this.#settle(identifier, this.#unanswered(timeoutMs)), timeoutMs);
    this.#writer.write(bytes).catch((error: unknown) => {
      this.#settle(identifier, {
        ok: false,
        reason: "closed",
        cause: error instanceof Error ? error.message : String(error),
      });
      this.close();
    });
    return answered;
  }

  /** Closes the connection; whatever waits fails as `closed`. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const id of [...this.#pending.keys()])
      this.#settle(id, { ok: false, reason: "closed", cause: "connection closed" });
    const socket = this.#socket;
    this.#socket = null;
    this.#writer = null;
    socket?.close().catch(() => undefined);
  }

  /**
   * Why a request on this open connection went unanswered. A server discards, unanswered, a request whose
   * Message-Authenticator or Request Authenticator another secret signed (RFC 3579 §3.2, RFC 2866 §3), and over
   * TCP nothing is lost on the way (RFC 6613 §2.6.1): a server that took the connection and has answered nothing
   * with this secret holds another one. Once it has answered, a silence is a plain timeout (a slow server).
   */
  #unanswered(timeoutMs: number): Answer {
    if (this.#answered.count > 0) return { ok: false, reason: "timeout", cause: `no answer in ${timeoutMs} ms` };
    const cause =
      `connected, but nothing answered on the connection in ${timeoutMs} ms: the ` +
      `server discards what this shared secret signs`;
    return { ok: false, reason: "secret-mismatch", cause };
  }

  #freeIdentifier(): number {
    while (this.#pending.has(this.#nextId)) this.#nextId = (this.#nextId + 1) & 0xff;
    const id = this.#nextId;
    this.#nextId = (this.#nextId + 1) & 0xff;
    return id;
  }

  #settle(identifier: number, answer: Answer): void {
    const pending = this.#pending.get(identifier);
    if (!pending) return;
    this.#pending.delete(identifier);
    clearTimeout(pending.timer);
    pending.resolve(answer);
  }

  #open(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("connection closed"));
    this.#opening ??= (async () => {
      const { host, port, tls } = this.target;
      const socket = await outboundConnect(host, port, "radius", this.#allowlist, tls);
      socket.closed.catch(() => undefined);
      this.#socket = socket;
      await socket.opened;
      this.#writer = socket.writable.getWriter();
      void this.#read(socket);
    })();
    return this.#opening;
  }

  async #read(socket: Socket): Promise<void> {
    const reader = socket.readable.getReader();
    let buffered = new Uint8Array(0);
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const joined = new Uint8Array(buffered.length + value.length);
        joined.set(buffered);
        joined.set(value, buffered.length);
        buffered = joined;
        while (buffered.length >= HEADER) {
          const length = packetLength(buffered);
          if (length < HEADER || length > MAX_PACKET)
            throw new Error(`a packet of Length ${length} (RFC 6613 §2.6.4: closed)`);
          if (buffered.length < length) break;
          this.#receive(buffered.slice(0, length));
          buffered = buffered.slice(length);
        }
      }
    } catch (error) {
      console.warn(
        `RADIUS ${this.target.host}:${this.target.port}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    this.close();
  }

  #receive(bytes: Uint8Array): void {
    const decoded = decodePacket(bytes);
    if (!decoded.ok) throw new Error(`malformed packet: ${decoded.reason}`);
    const packet = decoded.packet;
    if (RESPONSES.has(packet.code)) {
      const pending = this.#pending.get(packet.identifier);
      // An answer to nothing outstanding (its request timed out) is dropped.
      if (!pending) return;
      const verdict = verifyResponse(bytes, pending.authenticator, this.target.secret);
      if (!verdict.ok) {
        const cause =
          `the ` +
          `answer's ${verdict.reason === "authenticator" ? "Response Authenticator" : "Message-Authenticator"} ` +
          `does not verify`;
        this.#settle(packet.identifier, { ok: false, reason: "secret-mismatch", cause });
        return;
      }
      this.#answered.count++;
      this.#settle(packet.identifier, { ok: true, packet });
      return;
    }
    // Requests from the server (a Disconnect or CoA here, RFC 5176) are not taken on this connection: ignored.
  }
}
