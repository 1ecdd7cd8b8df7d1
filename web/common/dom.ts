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
 * alert region. Both also show on screen, under the header.
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
      region.textContent = message;
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

const clockTime = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** `<time>` for an instant: the local time of day when it is today, else date and time; the ISO form in the title. */
export function timeOf(iso: string): HTMLTimeElement {
  const at = new Date(iso);
  const today = at.toDateString() === new Date().toDateString();
  return h("time", { datetime: iso, title: dateTime.format(at) }, today ? clockTime.format(at) : dateTime.format(at));
}

/** How long since `iso`, roughly, as a person says it: `under a minute`, `42 min`, `3 h 5 min`, `2 d 4 h`. */
export function durationSince(iso: string, now = Date.now()): string {
  const minutes = Math.floor(Math.max(0, now - Date.parse(iso)) / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A code such as `issuer_unavailable` as words. */
export function words(code: string): string {
  const text = code.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const NOT_TYPED = new Set(["radio", "checkbox", "button", "submit", "reset"]);

/** True when a key press goes into a field (text, a list), so it must not trigger a shortcut; radios and buttons take shortcuts. */
export function typingIn(target: EventTarget | null): boolean {
  if (target instanceof HTMLInputElement) return !NOT_TYPED.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}
