/** RADIUS: the server pool's health, read from the data plane. */
import { implement } from "../http/route.ts";
import { radius } from "../schemas/radius.ts";

export const radiusRoutes = [implement(radius.servers, (ctx) => ctx.appliance.stub.dataPlane().radiusStatus())];
