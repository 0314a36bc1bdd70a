/**
 * A TCP conversation from the Worker runtime's own sockets (`connect()` from
 * cloudflare:sockets, so it runs in the local fleet and deployed alike), for
 * the sinks that speak a protocol rather than HTTP (SMTP, MQTT). The
 * destination passes the one outbound policy first (src/config/destinations.ts):
 * a refused one is never connected to, and the socket goes to the host
 * exactly as the policy judged it. TLS verifies the server against the
 * runtime's roots (plus NODE_EXTRA_CA_CERTS on a local fleet), never off.
 *
 * The whole conversation has one deadline: when it passes the socket is
 * closed, so a server that stops answering fails the attempt rather than
 * holding it.
 */
import type { Purpose } from "../../src/config/destinations.ts";
import { outboundConnectUrl } from "../outbound-socket.ts";

/**
 * How a protocol line may be at most (SMTP's reply line is 512 octets: RFC 5321 §4.5.3.1.5; servers write longer ones).
 */
const MAX_LINE = 4096;

export class Wire {
  #socket: Socket;
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #buffered = new Uint8Array(0);
  #timer: ReturnType<typeof setTimeout>;
  #timedOut = false;

  private constructor(socket: Socket, timeoutMs: number) {
    // A refused or reset connection rejects `closed` too; the read or write that meets it reports it.
    socket.closed.catch(() => undefined);
    this.#socket = socket;
    this.#reader = socket.readable.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    this.#writer = socket.writable.getWriter() as WritableStreamDefaultWriter<Uint8Array>;
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      void this.close();
    }, timeoutMs);
  }

  /**
   * Opens a connection to `url` for `purpose` (throws DestinationRefused, nothing sent, when the policy refuses it).
   */
  static async open(
    url: string,
    purpose: Purpose,
    allowlist: readonly string[],
    defaultPort: number,
    tls: "on" | "off" | "starttls",
    timeoutMs: number,
  ): Promise<Wire> {
    const wire = new Wire(await outboundConnectUrl(url, purpose, allowlist, defaultPort, tls), timeoutMs);
    try {
      await wire.#socket.opened;
    } catch (error) {
      await wire.close();
      throw error;
    }
    return wire;
  }

  /** Whether the deadline closed the connection. */
  get timedOut(): boolean {
    return this.#timedOut;
  }

  async write(data: Uint8Array | string): Promise<void> {
    await this.#writer.write(typeof data === "string" ? new TextEncoder().encode(data) : data);
  }

  /** The next line, without its CRLF (or LF). */
  async readLine(): Promise<string> {
    for (;;) {
      const end = this.#buffered.indexOf(0x0a);
      if (end >= 0) {
        const line = this.#take(end + 1);
        return new TextDecoder().decode(line).replace(/\r?\n$/, "");
      }
      if (this.#buffered.length > MAX_LINE) throw new Error("line too long");
      await this.#fill();
    }
  }

  /** Exactly `count` bytes. */
  async read(count: number): Promise<Uint8Array> {
    while (this.#buffered.length < count) await this.#fill();
    return this.#take(count);
  }

  /**
   * Upgrades to TLS in place (STARTTLS). Anything the server sent after its
   * go-ahead and before the handshake is refused: it came in the clear and
   * would be read as if protected (the STARTTLS command injection of
   * CVE-2011-0411 and its kin).
   */
  async startTls(): Promise<void> {
    if (this.#buffered.length > 0) throw new Error("data before the TLS handshake");
    this.#reader.releaseLock();
    this.#writer.releaseLock();
    this.#socket = this.#socket.startTls();
    this.#socket.closed.catch(() => undefined);
    this.#reader = this.#socket.readable.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    this.#writer = this.#socket.writable.getWriter() as WritableStreamDefaultWriter<Uint8Array>;
    await this.#socket.opened;
  }

  async close(): Promise<void> {
    clearTimeout(this.#timer);
    await this.#socket.close().catch(() => undefined);
  }

  async #fill(): Promise<void> {
    const { value, done } = await this.#reader.read();
    if (done) throw new Error(this.#timedOut ? "no answer in time" : "connection closed by the server");
    const joined = new Uint8Array(this.#buffered.length + value.length);
    joined.set(this.#buffered);
    joined.set(value, this.#buffered.length);
    this.#buffered = joined;
  }

  #take(count: number): Uint8Array {
    const head = this.#buffered.slice(0, count);
    this.#buffered = this.#buffered.slice(count);
    return head;
  }
}
