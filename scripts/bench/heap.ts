/**
 * The JS heap of the fleet's Worker isolate, read through workerd's V8
 * inspector (the launcher's BNG_INSPECTOR_PORT): every appliance's Durable
 * Object runs in that one isolate, so the growth per appliance is what one
 * object holds, the figure a deployed object's 128 MB is measured against.
 */

/** V8's heap after a full collection: objects, and the typed arrays' backing stores held outside it. */
export interface HeapFigures {
  usedBytes: number;
  backingStoreBytes: number;
}

type Target = { id: string; webSocketDebuggerUrl: string };

/**
 * Collects garbage in the Worker's isolate and reads its heap. workerd answers
 * inspector messages from inside the isolate, so `nudge` (any request to the
 * Worker) is called every 200 ms until the answers arrive.
 */
export async function isolateHeap(
  inspectorPort: number,
  worker: string,
  nudge: () => Promise<unknown>,
): Promise<HeapFigures> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as Target[];
  const target = targets.find((t) => t.id === `core:user:${worker}`);
  if (!target)
    throw new Error(
      `workerd's inspector lists no Worker '${worker}' (targets: ${targets.map((t) => t.id).join(", ")})`,
    );
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", () => reject(new Error(`cannot open ${target.webSocketDebuggerUrl}`)), {
      once: true,
    });
  });
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  let nextId = 0;
  const send = async (method: string): Promise<unknown> => {
    const id = ++nextId;
    const answered = new Promise<unknown>((resolve) => pending.set(id, resolve));
    socket.send(JSON.stringify({ id, method, params: {} }));
    let done = false;
    void answered.then(() => (done = true));
    for (let waited = 0; !done; waited += 200) {
      if (waited > 60_000) throw new Error(`workerd's inspector did not answer ${method} within a minute`);
      await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 200))]);
      if (!done) await nudge().catch(() => undefined);
    }
    return answered;
  };
  try {
    await send("Runtime.enable");
    await send("HeapProfiler.collectGarbage");
    const usage = (await send("Runtime.getHeapUsage")) as { usedSize: number; backingStorageSize?: number };
    return { usedBytes: usage.usedSize, backingStoreBytes: usage.backingStorageSize ?? 0 };
  } finally {
    socket.close();
  }
}
