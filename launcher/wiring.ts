/**
 * The launcher's per-launch wiring secret (issue #47; src/fleet/wiring.ts): its relay sends it in X-BNG-Wiring
 * beside X-BNG-Appliance and X-BNG-Peer-Address, workerd's public sockets inject it, and the Worker gets it as
 * BNG_WIRING_SECRET, so a process of this machine talking to the Worker's loopback socket cannot name an
 * appliance or a client address. Made afresh by each launch and never written anywhere.
 */
import { randomBytes } from "node:crypto";

export const WIRING_SECRET = randomBytes(32).toString("base64url");
