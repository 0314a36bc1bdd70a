import { Router } from "itty-router";
import { routes } from "../src/routes/index.ts";
const gets = routes.filter((r) => r.method === "GET");
const idx = gets.findIndex((r) => r.path.startsWith("/api/v1/fleet/{appliance}"));
console.log("GET routes", gets.length, "fleet route at", idx);
const router = Router();
for (const r of gets) router.get(r.path.replace(/\{(\w+)\+\}/g, ":$1+").replace(/\{(\w+)\}/g, ":$1"), () => new Response("x"));
const req = () => new Request("http://x/api/v1/fleet/edge-2/sessions?limit=100");
for (let k = 0; k < 3; k++) { const t0 = performance.now(); for (let i = 0; i < 20000; i++) await router.fetch(req()); const t1 = performance.now(); for (let i = 0; i < 20000; i++) req(); const t2 = performance.now(); console.log("itty µs/route", ((t1 - t0 - (t2 - t1)) * 1000 / 20000).toFixed(2)); }
