/**
 * Client-side routing on the History API: every page has its own deep link, and a `#part` of a page links to that part.
 */
import { signal } from "@preact/signals";

export const location = signal(window.location.pathname + window.location.search);
/** The link's `#part` (a configuration value, `#routing.routerId`), or "". */
export const hash = signal(window.location.hash);

/**
 * Goes to a path in the app (pushes a history entry); a path that differs only by its `#part` stays on the page and
 * brings the part into view.
 */
export function navigate(to: string, replace = false): void {
  const at = to.indexOf("#");
  const path = at < 0 ? to : to.slice(0, at);
  const part = at < 0 ? "" : to.slice(at);
  if (path === location.value && part === hash.value) return;
  if (replace || path === location.value) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  const samePage = path === location.value;
  location.value = path;
  hash.value = part;
  if (!samePage && !part) window.scrollTo(0, 0);
}

const follow = () => {
  location.value = window.location.pathname + window.location.search;
  hash.value = window.location.hash;
};
window.addEventListener("popstate", follow);
// A link to a part of this page typed or pasted into the address bar changes only the hash.
window.addEventListener("hashchange", follow);

// Same-origin links inside the app navigate without a page load.
document.addEventListener("click", (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const anchor = (event.target as Element).closest?.("a");
  if (!anchor || anchor.target || anchor.hasAttribute("download") || anchor.origin !== window.location.origin) return;
  if (anchor.pathname.startsWith("/api/")) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search + anchor.hash);
});

export const pathname = () => location.value.split("?")[0]!;
export const searchParams = () => new URLSearchParams(location.value.split("?")[1] ?? "");
