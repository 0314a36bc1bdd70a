/**
 * What the end-to-end tests read of a fleet the harness started (scripts/harness/fleet-process.ts): its generated
 * certificates and the sockets its processes listen on.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

/** The PEM certificate the launcher generated for an appliance. */
export const certificateOf = (dataDir: string, appliance: string) =>
  readFile(path.join(dataDir, "certs", `${appliance}.crt`), "utf8");

/** A process and its descendants (workerd runs as the launcher's child), read from /proc. */
function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree;
}

/**
 * Every TCP port the launcher and its processes listen on (its public ports, workerd's loopback sockets, Miniflare's
 * own, an inspector), with its address, read from /proc: the sockets each process holds open, matched by inode with
 * the kernel's table of listening sockets.
 */
export function listeningSockets(pid: number): { address: string; port: number }[] {
  const inodes = new Set<string>();
  for (const process of processTree(pid)) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${process}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${process}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode) inodes.add(inode);
      } catch {
        // closed meanwhile
      }
    }
  }
  const found: { address: string; port: number }[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // st 0A is LISTEN; the inode is the tenth field.
      if (fields.length < 10 || fields[3] !== "0A" || !inodes.has(fields[9]!)) continue;
      const [hex, port] = fields[1]!.split(":");
      const address =
        hex!.length === 8
          ? hex!
              .match(/../g)!
              .reverse()
              .map((b) => parseInt(b, 16))
              .join(".")
          : `[${hex}]`;
      found.push({ address, port: parseInt(port!, 16) });
    }
  }
  return found;
}
