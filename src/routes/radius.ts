/** RADIUS: the server pool's health, read from the data plane. */
import { inWorker } from "../http/route.ts";
import { radius } from "../schemas/radius.ts";

export const radiusRoutes = [inWorker(radius.servers, (ctx) => ctx.port.radius.servers())];
