/**
 * Reading e-Devlet's form pages as a browser would show them, in one forward pass over the page
 * (no backtracking pattern ever runs over a whole page, so a hostile page cannot make reading
 * slow): the start tags outside comments and scripts (for the token, the fields), and the
 * messages the page shows (for the negative answers). A page is input from outside: whatever it
 * holds, reading it takes time in proportion to its length.
 */
import { LEGACY_NAMES, NAMED_REFERENCES, NUMERIC_REPLACEMENTS } from "./entities.ts";

/** One start tag: its name and its attributes, names in lower case, values decoded. */
export interface Tag {
  name: string;
  attributes: ReadonlyMap<string, string>;
}

/** What a page says, as read. */
export interface Page {
  /** Every start tag outside comments, scripts, styles and other text a browser does not parse as markup. */
  tags: Tag[];
  /**
   * The text of each message the page shows: an element with `role="alert"` or one of
   * e-Devlet's message classes, that nothing hides. Empty when the page nests deeper than
   * `MAX_DEPTH`: what is hidden is then not known, so no message is taken from it.
   */
  messages: string[];
}

/** Elements nested deeper than this are not followed. */
export const MAX_DEPTH = 512;

/** The classes e-Devlet gives the box its pages show a message in. */
const MESSAGE_CLASSES = new Set(["fieldsetErrors", "warningContainer", "errorContainer", "infoContainer"]);
/** Classes that hide an element in e-Devlet's stylesheets and the common frameworks. */
const HIDDEN_CLASSES = new Set(["hidden", "hide", "d-none", "sr-only", "visually-hidden", "invisible"]);
/** Elements whose content is no markup and is not shown as text on the page. */
const RAW_TEXT = new Set(["script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript"]);
/** Elements that are never closed. */
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
const isAsciiLetter = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isAlphanumeric = (code: number) => isAsciiLetter(code) || isDigit(code);
const isHexDigit = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
/** The longest name a named reference has. */
const LONGEST_NAME = 32;
/** The longest name a reference without its semicolon has. */
const LONGEST_LEGACY_NAME = 6;

/** One numeric reference's character, as a browser reads it. */
function numericCharacter(code: number): string {
  const replaced = NUMERIC_REPLACEMENTS[code];
  if (replaced !== undefined) return replaced;
  if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\uFFFD";
  return String.fromCodePoint(code);
}

/** `text` with every character reference decoded as a browser decodes it; an unknown one stays as written. */
export function decodeEntities(text: string): string {
  let out = "";
  let from = 0;
  for (let at = text.indexOf("&"); at >= 0; at = text.indexOf("&", from)) {
    out += text.slice(from, at);
    let end = at + 1;
    let decoded: string | undefined;
    if (text.charCodeAt(end) === 0x23) {
      // &#123; or &#x7B;, the semicolon optional.
      end += 1;
      const hex = text[end] === "x" || text[end] === "X";
      if (hex) end += 1;
      const digitsAt = end;
      while (end < text.length && (hex ? isHexDigit : isDigit)(text.charCodeAt(end))) end += 1;
      if (end > digitsAt) {
        const digits = text.slice(digitsAt, end);
        const code = digits.length > 8 ? Number.POSITIVE_INFINITY : Number.parseInt(digits, hex ? 16 : 10);
        decoded = numericCharacter(code);
        if (text.charCodeAt(end) === 0x3b) end += 1;
      }
    } else {
      while (end < text.length && end - at <= LONGEST_NAME && isAlphanumeric(text.charCodeAt(end))) end += 1;
      const name = text.slice(at + 1, end);
      if (text.charCodeAt(end) === 0x3b && NAMED_REFERENCES[name] !== undefined) {
        decoded = NAMED_REFERENCES[name];
        end += 1;
      } else {
        // Without the semicolon, only the legacy names, the longest that fits.
        for (let length = Math.min(name.length, LONGEST_LEGACY_NAME); length > 1; length -= 1) {
          const legacy = name.slice(0, length);
          if (LEGACY_NAMES.has(legacy)) {
            decoded = NAMED_REFERENCES[legacy];
            end = at + 1 + length;
            break;
          }
        }
      }
    }
    if (decoded === undefined) {
      out += "&";
      from = at + 1;
    } else {
      out += decoded;
      from = end;
    }
  }
  return out + text.slice(from);
}

/** Whether an element with these attributes is hidden from whoever looks at the page. */
function hides(attributes: ReadonlyMap<string, string>, classes: readonly string[]): boolean {
  if (attributes.has("hidden") || attributes.get("aria-hidden")?.toLowerCase() === "true") return true;
  const style = (attributes.get("style") ?? "").toLowerCase().replace(/\s+/g, "");
  if (style.includes("display:none") || style.includes("visibility:hidden")) return true;
  return classes.some((name) => HIDDEN_CLASSES.has(name));
}

interface Open {
  name: string;
  hidden: boolean;
  message: boolean;
}

/**
 * The tag whose name begins at `from` (just after `<` or `</`): its name and attributes (names in
 * lower case, values decoded, the first of a repeated one kept), whether it closes itself, and
 * where it ends; none when the page ends inside it.
 */
function readTag(
  html: string,
  from: number,
): { name: string; attributes: Map<string, string>; selfClosing: boolean; end: number } | undefined {
  const length = html.length;
  let cursor = from;
  const nameAt = cursor;
  while (cursor < length && !isSpace(html.charCodeAt(cursor)) && html[cursor] !== "/" && html[cursor] !== ">") {
    cursor += 1;
  }
  const name = html.slice(nameAt, cursor).toLowerCase();
  const attributes = new Map<string, string>();
  let finished = false;
  let selfClosing = false;
  while (cursor < length) {
    const code = html.charCodeAt(cursor);
    if (code === 0x3e) {
      finished = true;
      cursor += 1;
      break;
    }
    if (isSpace(code) || code === 0x2f) {
      selfClosing = code === 0x2f;
      cursor += 1;
      continue;
    }
    selfClosing = false;
    const attributeAt = cursor;
    cursor += 1;
    while (cursor < length) {
      const c = html.charCodeAt(cursor);
      if (isSpace(c) || c === 0x2f || c === 0x3e || c === 0x3d) break;
      cursor += 1;
    }
    const attribute = html.slice(attributeAt, cursor).toLowerCase();
    let value = "";
    let after = cursor;
    while (after < length && isSpace(html.charCodeAt(after))) after += 1;
    if (html.charCodeAt(after) === 0x3d) {
      cursor = after + 1;
      while (cursor < length && isSpace(html.charCodeAt(cursor))) cursor += 1;
      const quote = html[cursor];
      if (quote === '"' || quote === "'") {
        const end = html.indexOf(quote, cursor + 1);
        if (end < 0) {
          cursor = length;
          break;
        }
        value = html.slice(cursor + 1, end);
        cursor = end + 1;
      } else {
        const valueAt = cursor;
        while (cursor < length && !isSpace(html.charCodeAt(cursor)) && html.charCodeAt(cursor) !== 0x3e) cursor += 1;
        value = html.slice(valueAt, cursor);
      }
    }
    if (!attributes.has(attribute)) attributes.set(attribute, decodeEntities(value));
  }
  return finished ? { name, attributes, selfClosing, end: cursor } : undefined;
}

/**
 * The elements open where the reading stands, and the messages they make: the text inside a
 * message element (`role="alert"`, a message class) that nothing hidden holds, read when it closes.
 */
class OpenElements {
  private readonly messages: string[] = [];
  private readonly stack: Open[] = [];
  private readonly openCount = new Map<string, number>();
  private hiddenDepth = 0;
  private messageDepth = 0;
  private message: string[] = [];
  private tooDeep = false;

  constructor(private readonly html: string) {}

  /** The page's text from `from` to `to`, kept when a message shows it. */
  readonly text = (from: number, to: number): void => {
    if (to > from && this.hiddenDepth === 0 && this.messageDepth > 0) this.message.push(this.html.slice(from, to));
  };

  /** A tag between two texts: a space, in a message. */
  readonly gap = (): void => {
    if (this.hiddenDepth === 0 && this.messageDepth > 0) this.message.push(" ");
  };

  push(open: Open): void {
    if (this.stack.length === MAX_DEPTH) {
      this.tooDeep = true;
      return;
    }
    this.stack.push(open);
    this.openCount.set(open.name, (this.openCount.get(open.name) ?? 0) + 1);
    if (open.hidden) this.hiddenDepth += 1;
    if (open.message) {
      if (this.messageDepth === 0) this.message = [];
      this.messageDepth += 1;
    }
  }

  private pop(): void {
    const open = this.stack.pop();
    if (!open) return;
    this.openCount.set(open.name, (this.openCount.get(open.name) ?? 1) - 1);
    if (open.message) {
      this.messageDepth -= 1;
      if (this.messageDepth === 0 && this.hiddenDepth === 0) {
        this.messages.push(collapse(decodeEntities(this.message.join(""))));
      }
    }
    if (open.hidden) this.hiddenDepth -= 1;
  }

  /** Closes the innermost open `name` and everything opened inside it; an end tag nothing opened is ignored. */
  close(name: string): void {
    if ((this.openCount.get(name) ?? 0) === 0) return;
    for (;;) {
      const top = this.stack[this.stack.length - 1];
      this.pop();
      if (!top || top.name === name) return;
    }
  }

  /** Closes what the page left open; the messages, or none on a page nested past `MAX_DEPTH`. */
  finish(): string[] {
    while (this.stack.length > 0) this.pop();
    return this.tooDeep ? [] : this.messages;
  }
}

/** Reads `html` in one pass. */
export function readPage(html: string): Page {
  const tags: Tag[] = [];
  const open = new OpenElements(html);
  const { text, gap } = open;
  const length = html.length;

  /** Where the raw text of `name` begun at `from` ends: its end tag, whatever its case, or the page's end. */
  const rawEnd = (name: string, from: number): number => {
    for (let at = html.indexOf("</", from); at >= 0; at = html.indexOf("</", at + 2)) {
      const after = html.charCodeAt(at + 2 + name.length);
      if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name && !isAlphanumeric(after)) return at;
    }
    return length;
  };

  let at = 0;
  while (at < length) {
    const lt = html.indexOf("<", at);
    if (lt < 0) {
      text(at, length);
      break;
    }
    text(at, lt);
    const next = html.charCodeAt(lt + 1);
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      at = end < 0 ? length : end + 3;
      continue;
    }
    if (next === 0x21 || next === 0x3f) {
      // <!DOCTYPE …>, <![CDATA[…]]>, <?…>: no text, no tag.
      const end = html.indexOf(">", lt + 2);
      at = end < 0 ? length : end + 1;
      continue;
    }
    const closing = next === 0x2f;
    const cursor = closing ? lt + 2 : lt + 1;
    if (!isAsciiLetter(html.charCodeAt(cursor))) {
      // A `<` that opens no tag is text.
      text(lt, lt + 1);
      at = lt + 1;
      continue;
    }
    const tag = readTag(html, cursor);
    // A tag the page never finishes is no tag: the page ends inside it.
    if (!tag) break;
    const { name, attributes, selfClosing } = tag;
    at = tag.end;
    gap();
    if (closing) {
      open.close(name);
      continue;
    }
    tags.push({ name, attributes });
    if (RAW_TEXT.has(name)) {
      const end = rawEnd(name, at);
      const after = end < length ? html.indexOf(">", end) : -1;
      at = after < 0 ? length : after + 1;
      continue;
    }
    if (VOID.has(name) || selfClosing) continue;
    const classes = (attributes.get("class") ?? "").split(/\s+/).filter(Boolean);
    open.push({
      name,
      hidden: name === "template" || hides(attributes, classes),
      message: attributes.get("role")?.toLowerCase() === "alert" || classes.some((token) => MESSAGE_CLASSES.has(token)),
    });
  }
  return { tags, messages: open.finish() };
}

/** Spacing collapsed and trimmed. */
function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The page's token: the hidden input's `value` (`<input type="hidden" name="token" value="{…}">`,
 * its attributes in any order), or else the `data-token` some pages carry; undefined when none.
 */
export function pageToken(page: Page): string | undefined {
  const input = page.tags.find(
    ({ name, attributes }) =>
      name === "input" &&
      attributes.get("name") === "token" &&
      attributes.get("type")?.toLowerCase() === "hidden" &&
      attributes.get("value"),
  );
  if (input) return input.attributes.get("value");
  return page.tags
    .map(({ attributes }) => attributes.get("data-token"))
    .find((token) => token !== undefined && token !== "");
}

/** Where the page links to the document (`?belge=goster`), for a probe to show; the flow asks for it regardless. */
export function documentLink(page: Page): string | undefined {
  return page.tags
    .map(({ name, attributes }) => (name === "a" ? attributes.get("href") : undefined))
    .find((href) => href?.includes("belge=goster"));
}

/** Whether the page's form asks for the field `name`. */
export function hasField(page: Page, name: string): boolean {
  return page.tags.some(
    (tag) =>
      (tag.name === "input" || tag.name === "select" || tag.name === "textarea") && tag.attributes.get("name") === name,
  );
}
