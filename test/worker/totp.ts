/**
 * RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30-second steps) written for the tests from the RFC, so the codes a
 * test types are not made by otplib, the library production verifies with. totp.test.ts checks it against
 * the RFC's published vectors (the values oathtool prints).
 */
import { onTestFinished, vi } from "vitest";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Decode(text: string): Uint8Array {
  const bits = [...text.replace(/=+$/, "").toUpperCase()]
    .map((c) => {
      const value = BASE32.indexOf(c);
      if (value < 0) throw new Error(`not Base32: ${c}`);
      return value.toString(2).padStart(5, "0");
    })
    .join("");
  return Uint8Array.from(bits.match(/.{8}/g) ?? [], (byte) => parseInt(byte, 2));
}

/** The 6-digit code of a Base32 secret at a Unix time in seconds (RFC 4226 §5.3 dynamic truncation). */
export async function totpAt(secret: string, unixSeconds: number): Promise<string> {
  const counter = new DataView(new ArrayBuffer(8));
  counter.setBigUint64(0, BigInt(Math.floor(unixSeconds / 30)));
  const key = await crypto.subtle.importKey("raw", base32Decode(secret), { name: "HMAC", hash: "SHA-1" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, counter.buffer));
  const offset = mac[19]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 1_000_000).padStart(6, "0");
}

/**
 * The code `offsetSteps` 30-second steps after the current one (1: the next step's code, accepted by the ±1 step
 * window).
 */
export const totpCode = (secret: string, offsetSteps = 0) => totpAt(secret, Date.now() / 1000 + offsetSteps * 30);

/**
 * Holds the wall clock (Date, in the test and in the appliance's objects alike) still at the start of the
 * current 30-second step for the rest of the test, so "the current step" and "the next step" cannot move
 * under a test however slow the machine is; the test may still move it on with `vi.setSystemTime`.
 */
export function holdWallClock(): void {
  vi.useFakeTimers({ toFake: ["Date"], now: Math.floor(Date.now() / 30_000) * 30_000 });
  onTestFinished(() => void vi.useRealTimers());
}
