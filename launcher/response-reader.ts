/**
 * Reads workerd's HTTP/1.1 answers for the relay (launcher/upstream-pool.ts) as they arrive: the head, then the
 * body as it is framed (Content-Length, chunked, or up to the connection's close), with no buffering beyond a head
 * or a chunk-size line split across reads. Node's own client (http.request and its Agent) did this and more, and
 * cost the relay about half its CPU a request (docs/benchmark.md). The answers come from workerd on loopback, never
 * from a client; a malformed one is an error that fails the request (502), never something passed on.
 */

/** An answer's status line and headers, names and values as they came. */
export type ResponseHead = { status: number; message: string; rawHeaders: string[] };

export type ResponseEvents = {
  head(head: ResponseHead): void;
  body(chunk: Buffer): void;
  /** The answer is complete; `keepAlive` says whether the connection may carry another request. */
  end(keepAlive: boolean): void;
};

/**
 * A head larger than this is not workerd's (its own answers stay far below; the relay's clients' heads are capped at
 * 128 KiB).
 */
const MAX_HEAD_BYTES = 1024 * 1024;
const EMPTY = Buffer.alloc(0);

type State = "head" | "size" | "data" | "data-end" | "trailers" | "length" | "until-close" | "done";

export class ResponseReader {
  #state: State = "head";
  /** Bytes of a line (or head) that has not ended yet. */
  #partial: Buffer = EMPTY;
  /** Bytes still to come of the current chunk, or of a Content-Length body. */
  #remaining = 0;
  #keepAlive = true;

  readonly #bodiless: boolean;
  readonly #events: ResponseEvents;

  /** `bodiless`: the request was HEAD, so no answer has a body whatever its headers say. */
  constructor(bodiless: boolean, events: ResponseEvents) {
    this.#bodiless = bodiless;
    this.#events = events;
  }

  /** Reads the next bytes of the connection; throws on anything that is not a well-formed answer. */
  push(chunk: Buffer): void {
    const data = this.#partial.length > 0 ? Buffer.concat([this.#partial, chunk]) : chunk;
    this.#partial = EMPTY;
    let at = 0;
    while (at < data.length) {
      switch (this.#state) {
        case "head": {
          const end = data.indexOf("\r\n\r\n", at, "latin1");
          if (end < 0) return this.#keep(data, at);
          this.#readHead(data.toString("latin1", at, end));
          at = end + 4;
          break;
        }
        case "size": {
          const end = data.indexOf("\r\n", at, "latin1");
          if (end < 0) return this.#keep(data, at);
          // Chunk extensions (after ';') are ignored, as RFC 9112 §7.1.1 lets a recipient do.
          const digits = /^[0-9A-Fa-f]{1,12}(?=[;\t ]|$)/.exec(data.toString("latin1", at, end))?.[0];
          if (digits === undefined) throw new Error("a malformed chunk size");
          this.#remaining = parseInt(digits, 16);
          this.#state = this.#remaining === 0 ? "trailers" : "data";
          at = end + 2;
          break;
        }
        case "data":
        case "length": {
          const take = Math.min(this.#remaining, data.length - at);
          this.#events.body(data.subarray(at, at + take));
          at += take;
          this.#remaining -= take;
          if (this.#remaining === 0) {
            if (this.#state === "data") this.#state = "data-end";
            else this.#finish();
          }
          break;
        }
        case "data-end": {
          if (data.length - at < 2) return this.#keep(data, at);
          if (data[at] !== 0x0d || data[at + 1] !== 0x0a) throw new Error("a chunk without its closing CRLF");
          at += 2;
          this.#state = "size";
          break;
        }
        case "trailers": {
          // Trailer fields are dropped (workerd sends none; the relay frames its own answer); an empty line ends them.
          const end = data.indexOf("\r\n", at, "latin1");
          if (end < 0) return this.#keep(data, at);
          if (end === at) this.#finish();
          at = end + 2;
          break;
        }
        case "until-close":
          this.#events.body(at === 0 ? data : data.subarray(at));
          return;
        case "done":
          throw new Error("bytes after a complete answer");
      }
    }
  }

  /**
   * The connection closed: true when that completes the answer (a body delimited by the close, or one already done).
   */
  close(): boolean {
    if (this.#state === "until-close") {
      this.#keepAlive = false;
      this.#finish();
    }
    return this.#state === "done";
  }

  #keep(data: Buffer, at: number): void {
    this.#partial = Buffer.from(data.subarray(at));
    if (this.#partial.length > MAX_HEAD_BYTES) throw new Error("a head or line past 1 MiB");
  }

  #finish(): void {
    this.#state = "done";
    this.#events.end(this.#keepAlive);
  }

  #readHead(text: string): void {
    const [statusLine = "", ...lines] = text.split("\r\n");
    const status = /^HTTP\/1\.([01]) ([1-5]\d\d)(?: (.*))?$/.exec(statusLine);
    if (!status) throw new Error("a malformed status line");
    const code = Number(status[2]);
    // An interim answer (100 Continue and the like; 101 never comes here) is skipped: the final one follows.
    if (code < 200) return;
    const rawHeaders: string[] = [];
    let length: string | undefined;
    let chunked = false;
    let encoded = false;
    this.#keepAlive = status[1] === "1";
    for (const line of lines) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new Error("a malformed header line");
      const name = line.slice(0, colon);
      const value = line.slice(colon + 1).trim();
      rawHeaders.push(name, value);
      const lower = name.toLowerCase();
      if (lower === "content-length") length = value;
      else if (lower === "transfer-encoding") {
        encoded = true;
        chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
      } else if (lower === "connection") {
        if (/(?:^|,)\s*close\s*(?:,|$)/i.test(value)) this.#keepAlive = false;
        else if (/(?:^|,)\s*keep-alive\s*(?:,|$)/i.test(value)) this.#keepAlive = true;
      }
    }
    this.#events.head({ status: code, message: status[3] ?? "", rawHeaders });
    // RFC 9112 §6.3, in its order.
    if (this.#bodiless || code === 204 || code === 304) return this.#finish();
    if (encoded) {
      if (chunked) this.#state = "size";
      else [this.#state, this.#keepAlive] = ["until-close", false];
      return;
    }
    if (length !== undefined) {
      if (!/^\d{1,15}$/.test(length)) throw new Error("a malformed Content-Length");
      this.#remaining = Number(length);
      if (this.#remaining === 0) return this.#finish();
      this.#state = "length";
      return;
    }
    [this.#state, this.#keepAlive] = ["until-close", false];
  }
}
