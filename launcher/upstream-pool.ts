/**
 * The relay's kept-alive connections to workerd for requests without a body (reads, deletes, event streams: nearly
 * every request). A request's head is written as the relay built it (launcher/listeners.ts) and the answer read by
 * ResponseReader. One request at a time per connection, and a connection goes back to the pool only once its
 * answer is complete. Node's own client (http.request with a keep-alive Agent) did the same at about 1.5 times the
 * relay's CPU a request, and undici's Pool, tried in its stead, cost as much (docs/benchmark.md, issue #28); requests
 * with a body keep Node's client, for its backpressure and its early-answer handling (listeners.ts).
 */
import net from "node:net";
import { ResponseReader, type ResponseHead } from "./response-reader.ts";

export type ExchangeHandlers = {
  head(head: ResponseHead): void;
  /** A piece of the body; false asks for a pause until `resume()`. */
  body(chunk: Buffer): boolean;
  /**
   * Bytes came and the answer is not complete yet (an event stream's head alone): what is written should go out now.
   */
  waiting(): void;
  end(): void;
  /** No complete answer: `answered` says whether its head had already been handed over. */
  fail(error: Error, answered: boolean): void;
};

export type Exchange = { resume(): void; cancel(): void };

/** Idle connections kept at most, as Node's Agent keeps (maxFreeSockets). */
const MAX_IDLE = 256;

export class UpstreamPool {
  /**
   * Idle connections, each with the listener that drops it when workerd closes it (its keep-alive timeout) or it errs.
   */
  readonly #idle: { socket: net.Socket; drop: () => void }[] = [];

  /**
   * Sends one request (`head`, a complete head; no body) and hands its answer to `handlers`. A request put on a
   * kept-alive connection that workerd closed meanwhile (its reset or end before any byte of an answer) was
   * neither answered nor processed: it is sent once more on a fresh connection.
   */
  exchange(to: { host: string; port: number }, head: string, isHead: boolean, handlers: ExchangeHandlers): Exchange {
    let socket!: net.Socket;
    let settled = false;
    let answered = false;
    let retried = false;
    let detach = () => {};
    const fail = (error: Error, bytesCame: boolean, reused: boolean) => {
      if (settled) return;
      detach();
      socket.destroy();
      if (reused && !bytesCame && !retried) {
        retried = true;
        return start();
      }
      settled = true;
      handlers.fail(error, answered);
    };
    const start = () => {
      // A retry takes a fresh connection: the others kept may have been closed by workerd at the same moment.
      const taken = retried ? undefined : this.#take();
      const reused = taken !== undefined;
      // Errors are read below, or by the idle pool; never uncaught.
      socket = taken ?? net.connect({ ...to, noDelay: true }).on("error", () => {});
      let bytesCame = false;
      const reader = new ResponseReader(isHead, {
        head: (answer) => {
          answered = true;
          handlers.head(answer);
        },
        body: (chunk) => {
          if (!handlers.body(chunk)) socket.pause();
        },
        end: (keepAlive) => {
          settled = true;
          detach();
          if (keepAlive) this.#release(socket);
          else socket.destroy();
          handlers.end();
        },
      });
      const onData = (chunk: Buffer) => {
        bytesCame = true;
        try {
          reader.push(chunk);
        } catch (error) {
          return fail(error as Error, true, reused);
        }
        if (!settled) handlers.waiting();
      };
      const onClose = () => {
        if (!settled && !reader.close())
          fail(new Error("workerd closed the connection before its answer was complete"), bytesCame, reused);
      };
      const onError = (error: Error) => fail(error, bytesCame, reused);
      socket.on("data", onData).on("close", onClose).on("error", onError);
      detach = () => socket.off("data", onData).off("close", onClose).off("error", onError);
      socket.write(head);
    };
    start();
    return {
      // A late drain of the client's answer must not resume a connection already handed to another request.
      resume: () => {
        if (!settled) socket.resume();
      },
      cancel: () => {
        if (settled) return;
        settled = true;
        detach();
        socket.destroy();
      },
    };
  }

  /** Closes every idle connection (the listener is closing; busy ones go with their requests). */
  close(): void {
    for (const { socket } of this.#idle.splice(0)) socket.destroy();
  }

  #take(): net.Socket | undefined {
    for (let idle = this.#idle.pop(); idle !== undefined; idle = this.#idle.pop()) {
      const { socket, drop } = idle;
      socket.off("close", drop).off("error", drop).off("data", drop);
      if (!socket.destroyed && socket.readable && socket.writable) return socket;
      socket.destroy();
    }
    return undefined;
  }

  #release(socket: net.Socket): void {
    if (this.#idle.length >= MAX_IDLE) return void socket.destroy();
    // Anything an idle connection hears (workerd's close, an error, a stray byte) ends it.
    const idle = {
      socket,
      drop: () => {
        socket.destroy();
        const at = this.#idle.indexOf(idle);
        if (at >= 0) this.#idle.splice(at, 1);
      },
    };
    socket.resume(); // paused by the last chunk's backpressure, it would hear nothing
    socket.on("close", idle.drop).on("error", idle.drop).on("data", idle.drop);
    this.#idle.push(idle);
  }
}
