/**
 * The bench's two references, measured in the same run as the appliance so
 * every figure is a ratio to what the runtime itself manages on this machine
 * now: a bare Worker answering JSON, and a bare Durable Object RPC that reads
 * one SQLite row and answers JSON (the ceiling for anything that must ask the
 * appliance). The second also answers a page of JSON text of a given size
 * from an object, after asking another one first or not (`/page`,
 * `/page/two-calls`): the least a fleet proxy's two object calls cost beside
 * one, with no application code. They run under Miniflare, as the fleet
 * does, and are reached both directly and behind the launcher's own listener
 * (launcher/listeners.ts), the path every appliance request takes. The DO
 * read is reached a third way, through a byte pipe in the relay's place
 * (`bytePipe`): the least any relay in a Node process could cost. Not part
 * of the product's Worker.
 */
import net from "node:net";
import { Log, LogLevel, Miniflare } from "miniflare";
import { listenFrontend, type Frontend } from "../../launcher/listeners.ts";
import { joinSockets } from "../../launcher/join-sockets.ts";

const BARE_WORKER = `export default { fetch() { return Response.json({ hello: "world" }); } };`;

const DURABLE_OBJECT_READ = `
import { DurableObject } from "cloudflare:workers";
export class Row extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS row (id INTEGER PRIMARY KEY, name TEXT, value INTEGER)");
    ctx.storage.sql.exec("INSERT OR REPLACE INTO row VALUES (1, 'reference', 42)");
  }
  read() {
    return this.ctx.storage.sql.exec("SELECT id, name, value FROM row WHERE id = ?", 1).one();
  }
  page(bytes) {
    this.pages ??= new Map();
    if (!this.pages.has(bytes)) this.pages.set(bytes, JSON.stringify({ items: "x".repeat(Math.max(0, bytes - 12)) }));
    return this.pages.get(bytes);
  }
}
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/") return Response.json(await env.Row.getByName("reference").read());
    // The fleet proxy's shape with no application code: one object asked first, then another answers the page.
    if (url.pathname === "/page/two-calls") await env.Row.getByName("reference").read();
    const page = await env.Row.getByName("member").page(Number(url.searchParams.get("bytes")));
    return new Response(page, { headers: { "content-type": "application/json" } });
  },
};
`;

export interface References {
  /** Each reference's URL straight to workerd's socket. */
  direct: { worker: string; durableObject: string };
  /** The same, behind a launcher listener (plain HTTP), as appliances are reached. */
  listener: { worker: string; durableObject: string };
  /**
   * The DO read behind a byte pipe in this process: no parsing, no headers set, so nothing for the appliance to trust;
   * a floor, not a relay.
   */
  piped: { durableObject: string };
  dispose(): Promise<void>;
}

/**
 * Starts both reference Workers under one Miniflare (the given compatibility date, as the fleet's), each with its own
 * socket and listener.
 */
export async function startReferences(
  compatibilityDate: string,
  ports: { worker: number; durableObject: number },
): Promise<References> {
  const socket = [{ host: "127.0.0.1", port: 0 }];
  const mf = new Miniflare({
    workers: [
      { name: "reference-worker", modules: true, script: BARE_WORKER, compatibilityDate, unsafeDirectSockets: socket },
      {
        name: "reference-durable-object",
        modules: true,
        script: DURABLE_OBJECT_READ,
        compatibilityDate,
        durableObjects: { Row: { className: "Row", useSQLite: true } },
        unsafeDirectSockets: socket,
      },
    ],
    log: new Log(LogLevel.WARN),
    cf: false,
  });
  const frontends: Frontend[] = [];
  let worker: URL;
  let durableObject: URL;
  let pipe: net.Server | undefined;
  try {
    await mf.ready;
    worker = await mf.unsafeGetDirectURL("reference-worker");
    durableObject = await mf.unsafeGetDirectURL("reference-durable-object");
    for (const [name, target, port] of [
      ["reference-worker", worker, ports.worker],
      ["reference-durable-object", durableObject, ports.durableObject],
    ] as const) {
      const frontend = await listenFrontend({ name, address: "127.0.0.1", port });
      frontend.setTarget(target.hostname, Number(target.port));
      frontends.push(frontend);
    }
    pipe = await bytePipe(durableObject);
  } catch (error) {
    pipe?.close();
    await Promise.allSettled(frontends.map((f) => f.close()));
    await mf.dispose();
    throw error;
  }
  return {
    direct: { worker: worker.href, durableObject: durableObject.href },
    listener: {
      worker: `http://127.0.0.1:${ports.worker}/`,
      durableObject: `http://127.0.0.1:${ports.durableObject}/`,
    },
    piped: { durableObject: `http://127.0.0.1:${(pipe.address() as net.AddressInfo).port}/` },
    async dispose() {
      pipe.close();
      await Promise.allSettled(frontends.map((f) => f.close()));
      await mf.dispose();
    },
  };
}

/**
 * A loopback port whose every connection is joined byte for byte to `to`: the kernel's four socket calls a
 * request and the event loop's two wake-ups, which any relay in a Node process pays, and nothing else.
 */
async function bytePipe(to: URL): Promise<net.Server> {
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: to.hostname, port: Number(to.port), noDelay: true });
    client.setNoDelay(true);
    joinSockets(client, upstream);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", () => resolve()));
  return server;
}
