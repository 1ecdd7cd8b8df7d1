/**
 * Reading e-Devlet's form pages: the token each page carries, the fields its form asks for, the
 * link to the document, and the text a person would see. Only what the flow checks is read; a
 * page that lacks it is one this adapter does not know.
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ccedil: "ç",
  Ccedil: "Ç",
  ouml: "ö",
  Ouml: "Ö",
  uuml: "ü",
  Uuml: "Ü",
  acirc: "â",
  Acirc: "Â",
  icirc: "î",
  Icirc: "Î",
  ucirc: "û",
  Ucirc: "Û",
};

/** `text` with its character references decoded; an unknown one is left as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (reference, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : reference;
    }
    return NAMED_ENTITIES[name] ?? reference;
  });
}

const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** The attributes of one start tag's inside, names in lower case, values decoded. */
function attributes(inside: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, name = "", double, single, bare] of inside.matchAll(ATTRIBUTE)) {
    const key = name.toLowerCase();
    if (!found.has(key)) found.set(key, decodeEntities(double ?? single ?? bare ?? ""));
  }
  return found;
}

/** Every start tag named `names` on the page, as its attributes. */
function tags(html: string, names: readonly string[]): Map<string, string>[] {
  const pattern = new RegExp(`<(?:${names.join("|")})\\b([^>]*)>`, "gi");
  return [...withoutHidden(html).matchAll(pattern)].map(([, inside = ""]) => attributes(inside));
}

/** The page without comments, scripts and styles: nothing in them is on the page. */
function withoutHidden(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<script\b[\s\S]*?<\/script\s*>/gi, " ")
    .replace(/<style\b[\s\S]*?<\/style\s*>/gi, " ");
}

/**
 * The page's token: the hidden input's `value` (`<input type="hidden" name="token" value="{…}">`,
 * its attributes in any order), or else the `data-token` some pages carry; undefined when none.
 */
export function pageToken(html: string): string | undefined {
  const input = tags(html, ["input"]).find(
    (tag) => tag.get("name") === "token" && tag.get("type")?.toLowerCase() === "hidden" && tag.get("value"),
  );
  if (input) return input.get("value");
  return tags(html, ["[a-z][a-z0-9-]*"])
    .map((tag) => tag.get("data-token"))
    .find((token) => token !== undefined && token !== "");
}

/** Whether the page's form asks for the field `name`. */
export function hasField(html: string, name: string): boolean {
  return tags(html, ["input", "select", "textarea"]).some((tag) => tag.get("name") === name);
}

/** Whether the page links to the document (`?belge=goster`). */
export function linksToDocument(html: string): boolean {
  return tags(html, ["a"]).some((tag) => /[?&]belge=goster(?:&|$)/.test(tag.get("href") ?? ""));
}

/** The text a person would see: no tags, comments or scripts, references decoded, spacing collapsed. */
export function visibleText(html: string): string {
  return decodeEntities(withoutHidden(html).replace(/<[^>]*>/g, " "))
    .replace(/\s+/g, " ")
    .trim();
}
