/**
 * The launcher's own memory, for the soak. RSS alone cannot tell a leak from memory the allocator keeps (the
 * relay's buffers come and go by the million in an hour), so a parent that started the launcher with an IPC
 * channel (the bench's and the soak's launchFleet) may send "memory" and gets the JS heap after a full
 * collection, with the bytes held outside it. The collection runs through an in-process inspector session:
 * no port is opened, and a launcher started by a shell (`npm start`) has no channel and answers nothing.
 */
import { Session } from "node:inspector/promises";

/** The launcher's answer to "memory", in bytes. */
export interface LauncherMemory {
  heapUsed: number;
  /** C++ objects bound to JS objects, Buffers' and ArrayBuffers' contents included. */
  external: number;
}

export function answerMemoryQueries(): void {
  if (!process.send) return;
  process.on("message", (message) => {
    if (message !== "memory") return;
    void collectedMemory().then(
      (memory) => process.send?.({ memory }),
      () => undefined,
    );
  });
  // The channel must not keep a stopping launcher alive (adding a "message" listener refs it).
  process.channel?.unref();
}

async function collectedMemory(): Promise<LauncherMemory> {
  const session = new Session();
  session.connect();
  try {
    await session.post("HeapProfiler.collectGarbage");
  } finally {
    session.disconnect();
  }
  const { heapUsed, external } = process.memoryUsage();
  return { heapUsed, external };
}
