/** Client-side routing on the History API: every page has its own deep link. */
import { signal } from "@preact/signals";

export const location = signal(window.location.pathname + window.location.search);

/** Goes to a path in the app (pushes a history entry). */
export function navigate(to: string, replace = false): void {
  if (to === location.value) return;
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  location.value = to;
  window.scrollTo(0, 0);
}

window.addEventListener("popstate", () => {
  location.value = window.location.pathname + window.location.search;
});

// Same-origin links inside the app navigate without a page load.
document.addEventListener("click", (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element).closest?.("a");
  if (!anchor || anchor.target || anchor.hasAttribute("download") || anchor.origin !== window.location.origin) return;
  if (anchor.pathname.startsWith("/api/")) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
});

export const pathname = () => location.value.split("?")[0]!;
export const searchParams = () => new URLSearchParams(location.value.split("?")[1] ?? "");
