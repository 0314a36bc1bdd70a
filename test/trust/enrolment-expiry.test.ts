/**
 * TOTP enrolment lifetimes (src/trust/enrolment.ts): a pending enrolment and
 * its token last 10 minutes (600 s) from the login that started them.
 */
import { describe, expect, it } from "vitest";
import {
  checkEnrolment,
  enrolmentExpiresMs,
  readEnrolmentToken,
  signEnrolmentToken,
} from "../../src/trust/enrolment.ts";

const LOGIN = Date.UTC(2026, 10, 24, 8, 0, 0);
const KEY = new Uint8Array(32).fill(7);

describe("a pending enrolment", () => {
  it("started at 08:00:00 ends at 08:10:00", () => {
    expect(enrolmentExpiresMs(LOGIN)).toBe(Date.UTC(2026, 10, 24, 8, 10, 0));
  });

  it("can be completed up to 08:09:59.999", () => {
    expect(
      checkEnrolment({ expiresMs: Date.UTC(2026, 10, 24, 8, 10, 0) }, Date.UTC(2026, 10, 24, 8, 9, 59, 999)),
    ).toEqual({ ok: true });
  });

  it("is refused as expired from 08:10:00.000 on", () => {
    const pending = { expiresMs: Date.UTC(2026, 10, 24, 8, 10, 0) };
    expect(checkEnrolment(pending, Date.UTC(2026, 10, 24, 8, 10, 0))).toEqual({ ok: false, reason: "expired" });
    expect(checkEnrolment(pending, Date.UTC(2026, 10, 24, 9, 0, 0))).toEqual({ ok: false, reason: "expired" });
  });

  it("is refused as superseded once its row is gone (a later login started another)", () => {
    expect(checkEnrolment(null, LOGIN + 1000)).toEqual({ ok: false, reason: "superseded" });
  });
});

describe("the enrolment token", () => {
  it("signed at 08:00:00 is read back up to 08:09:59.999 and refused at 08:10:00", async () => {
    const token = await signEnrolmentToken(KEY, "alice", "e1", LOGIN);
    expect(await readEnrolmentToken(KEY, token, Date.UTC(2026, 10, 24, 8, 9, 59, 999))).toEqual({
      username: "alice",
      enrolmentId: "e1",
    });
    expect(await readEnrolmentToken(KEY, token, Date.UTC(2026, 10, 24, 8, 10, 0))).toBeNull();
  });

  it("signed at 08:00:00.400 ends at 08:10:00 (whole seconds), before its row at 08:10:00.400", async () => {
    const started = Date.UTC(2026, 10, 24, 8, 0, 0, 400);
    const token = await signEnrolmentToken(KEY, "alice", "e1", started);
    const at = Date.UTC(2026, 10, 24, 8, 10, 0, 200);
    expect(await readEnrolmentToken(KEY, token, at)).toBeNull();
    expect(checkEnrolment({ expiresMs: enrolmentExpiresMs(started) }, at)).toEqual({ ok: true });
  });

  it("is refused under another appliance's key", async () => {
    const token = await signEnrolmentToken(KEY, "alice", "e1", LOGIN);
    expect(await readEnrolmentToken(new Uint8Array(32).fill(8), token, LOGIN + 1000)).toBeNull();
  });
});
