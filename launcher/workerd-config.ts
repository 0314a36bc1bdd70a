/**
 * Run by launcher/workerd.sh each time Miniflare starts workerd: the configuration Miniflare wrote, on stdin,
 * rewritten to stdout with the appliances' public sockets (launcher/public-sockets.ts). The sockets come from
 * BNG_PUBLIC_SOCKETS (JSON: the keys stay in their files, out of workerd's environment).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { withPublicSockets, type PublicSocket } from "./public-sockets.ts";

const sockets = JSON.parse(process.env.BNG_PUBLIC_SOCKETS!) as PublicSocket[];
writeFileSync(1, withPublicSockets(readFileSync(0), sockets));
