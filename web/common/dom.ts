/** Small helpers for building the page by hand: elements, status messages, times. */

export type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined>;

/**
 * An element with its attributes and children. Text is always set as text, never parsed as
 * HTML, so nothing the API returns can become markup.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(
    ...children.filter((child): child is Node | string => child !== null && child !== undefined && child !== false),
  );
  return element;
}

/** The element with `id` in the page, which index.html guarantees. */
export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}`);
  return element as T;
}

/**
 * One place for what screen readers hear: `polite` news in a status region, errors in an
 * alert region. Both also show on screen, under the header. Instants in a message show in the
 * page's clock.
 */
export interface Announcer {
  info(message: string): void;
  error(message: string): void;
  clear(): void;
}

export function announcer(status: HTMLElement, alert: HTMLElement): Announcer {
  const show = (region: HTMLElement, other: HTMLElement, message: string) => {
    other.textContent = "";
    // Emptied first, so the same message said twice is announced twice.
    region.textContent = "";
    requestAnimationFrame(() => {
      region.textContent = localTimes(message);
    });
  };
  return {
    info: (message) => show(status, alert, message),
    error: (message) => show(alert, status, message),
    clear: () => {
      status.textContent = "";
      alert.textContent = "";
    },
  };
}

/** The document's language (`lang`), for month names; the browser's own when the page names none. */
function locale(): string | undefined {
  return document.documentElement.lang || undefined;
}

/**
 * Times in the browser's time zone on a 24-hour clock, whatever the browser's locale: one clock
 * across the page and its messages.
 */
function formatter(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale(), { ...options, hourCycle: "h23" });
}

/** An instant as text: the time of day when it is today, else date and time. */
export function clockText(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const today = at.toDateString() === new Date().toDateString();
  return today
    ? formatter({ hour: "2-digit", minute: "2-digit" }).format(at)
    : formatter({ dateStyle: "medium", timeStyle: "short" }).format(at);
}

/** `<time>` for an instant: the local time of day when it is today, else date and time; date, time and seconds in the title. */
export function timeOf(iso: string): HTMLTimeElement {
  const at = new Date(iso);
  return h(
    "time",
    { datetime: iso, title: formatter({ dateStyle: "medium", timeStyle: "medium" }).format(at) },
    clockText(iso),
  );
}

/**
 * Midnight starting `day` (`YYYY-MM-DD`, as a date input gives it) plus `plusDays`, in the
 * browser's time zone, as an instant: the page's days are the reader's days. None for no day.
 */
export function localDayStart(day: string, plusDays = 0): string | undefined {
  if (!day) return undefined;
  const at = new Date(`${day}T00:00:00`);
  at.setDate(at.getDate() + plusDays);
  return at.toISOString();
}

const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})\b/g;

/** A message with every ISO instant in it (as an API's problem detail carries them) in the page's clock. */
export function localTimes(message: string): string {
  return message.replace(ISO_INSTANT, (instant) => clockText(instant));
}

const NOT_TYPED = new Set(["radio", "checkbox", "button", "submit", "reset"]);

/** True when a key press goes into a field (text, a list), so it must not trigger a shortcut; radios and buttons take shortcuts. */
export function typingIn(target: EventTarget | null): boolean {
  if (target instanceof HTMLInputElement) return !NOT_TYPED.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}
