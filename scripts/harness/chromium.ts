/** Debian's Chromium for the browser tests and bench:ui, driven by playwright-core (never a browser download). */
import { chromium, type Browser } from "playwright-core";

/** Starts headless Chromium as root, without a GPU, and without the background traffic a closed network refuses. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}
