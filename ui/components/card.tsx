/**
 * A titled part of a page: a card whose heading names it for screen readers, and a disclosure that keeps a form folded
 * until it is wanted.
 */
import type { ComponentChildren } from "preact";

export function Card({
  id,
  title,
  children,
  aside,
}: {
  id: string;
  title: ComponentChildren;
  children: ComponentChildren;
  aside?: ComponentChildren;
}) {
  return (
    <section class="card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>
        {title}
        {aside && <span class="aside">{aside}</span>}
      </h2>
      {children}
    </section>
  );
}

/** A form folded under its title (adding is rarer than reading: the page stays short). */
export function Fold({ title, children, open }: { title: string; children: ComponentChildren; open?: boolean }) {
  return (
    <details class="fold" open={open}>
      <summary>{title}</summary>
      {children}
    </details>
  );
}

/** A line of headline figures (label: value), each value as the page formats it. */
export function Facts({ items, label }: { items: [string, ComponentChildren][]; label: string }) {
  return (
    <ul class="facts" aria-label={label}>
      {items.map(([name, value]) => (
        <li key={name}>
          {name}: <strong>{value}</strong>
        </li>
      ))}
    </ul>
  );
}

/** Previous and next over a paged list (shown only when there is more than a page). */
export function Pager({
  offset,
  total,
  size,
  go,
}: {
  offset: number;
  total: number;
  size: number;
  go: (offset: number) => void;
}) {
  if (total <= size && offset === 0) return null;
  return (
    <div class="pager">
      <button type="button" disabled={offset === 0} onClick={() => go(Math.max(0, offset - size))}>
        Previous
      </button>
      <button type="button" disabled={offset + size >= total} onClick={() => go(offset + size)}>
        Next
      </button>
    </div>
  );
}
