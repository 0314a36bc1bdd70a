import { expect, inject, test } from "vitest";

const { appliances, token } = inject("fleet");
const edge1 = appliances[0].url;

/** A call to edge-1's management API with the fleet's super-user token. */
const api = (path, init = {}) =>
  fetch(`${edge1}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

test("a subscriber's session is read, then disconnected", async () => {
  const { items } = await (await api("/sessions?limit=1")).json();
  const [newest] = items;
  expect(newest.username).toBeTruthy();

  const detail = await (await api(`/sessions/${newest.id}`)).json();
  expect(detail.ipv4).toBe(newest.ipv4);

  const disconnect = await api(`/sessions/${newest.id}`, { method: "DELETE" });
  expect(await disconnect.json()).toEqual({ status: "disconnected", sessionId: newest.id });
  expect((await api(`/sessions/${newest.id}`)).status).toBe(404);
});

test("every appliance of the fleet answers through edge-1's fleet proxy", async () => {
  for (const { name } of appliances) {
    const health = await (await api(`/fleet/${name}/system/health`)).json();
    expect(health).toMatchObject({ status: "ok", appliance: name });
  }
});
