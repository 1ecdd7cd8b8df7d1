/**
 * Reading e-Devlet's pages takes time in proportion to their length, whatever they hold: every
 * parser is fed 1 MiB of markup built to make a backtracking reader slow, and must take at most
 * a small multiple of what it takes over a plain page of the same size, measured in the same run
 * (a ratio, so a slow machine slows both). And what the reader finds: tokens, fields, messages.
 */
import { describe, expect, it } from "vitest";
import { pageText } from "#shared/adapters/edevlet/exchange";
import { decodeEntities, hasField, MAX_DEPTH, pageToken, readPage } from "#shared/adapters/edevlet/page";
import { says } from "#shared/domain/edevlet";

const MIB = 1024 * 1024;
/** `unit` repeated to 1 MiB. */
const mebibyteOf = (unit: string) => unit.repeat(Math.ceil(MIB / unit.length)).slice(0, MIB);

/** A plain page: e-Devlet's markup, repeated. */
const PLAIN = mebibyteOf(
  '<div class="formRow"><label for="a">Barkod Numarası</label><input type="text" name="a" id="a"></div>\n<p>Kurum ve kuruluşlar tarafından üretilen belgeler &amp; bilgiler.</p>\n',
);

/** Markup a backtracking reader meets at its worst: openings that never close, and references that never end. */
const ADVERSARIAL = {
  "script openings": mebibyteOf("<script "),
  "unclosed scripts": mebibyteOf("<script>x"),
  "end tags of nothing": mebibyteOf("</div"),
  "unclosed comments": mebibyteOf("<!--"),
  "tags never finished": mebibyteOf('<a href="?belge=goster'),
  attributes: `<input ${mebibyteOf('a=" ')}`,
  "unquoted values": `<input ${mebibyteOf("a=b=c=")}`,
  nesting: mebibyteOf('<div class="fieldsetErrors">'),
  "closing what is open": mebibyteOf("<div><span></div>"),
  references: mebibyteOf("&#"),
  "references without semicolons": mebibyteOf("&amp&ampx&"),
  "long names": mebibyteOf("&abcdefghijklmnopqrstuvwxyzabcdefghijk"),
  "less-thans": mebibyteOf("<<<<"),
  "sentences without end": mebibyteOf("Kayıt bulunmadı   "),
} as const;

/** The parsers a page goes through, each given the same text (the token and the fields are looked for in what `readPage` found). */
const PARSERS: Record<string, (text: string) => unknown> = {
  readPage: (text) => readPage(text),
  decodeEntities: (text) => decodeEntities(text),
  pageText: (text) => pageText({ url: new URL("https://example.invalid"), contentType: "", body: Buffer.from(text) }),
  says: (text) => says(text, "Kayıt bulunmadı."),
};

/** The faster of two runs, in milliseconds: the less disturbed by the machine's other work. */
function timed(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 2; round += 1) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** How many times slower than over the plain page a parser may be. */
const RATIO = 25;
/** What a measurement this short cannot tell apart from noise, in milliseconds. */
const FLOOR_MS = 20;

describe.each(Object.entries(PARSERS))("%s over 1 MiB", (_name, parse) => {
  it("takes over any adversarial markup at most a small multiple of its time over a plain page", () => {
    const plain = timed(() => parse(PLAIN));
    for (const [kind, text] of Object.entries(ADVERSARIAL)) {
      const hostile = timed(() => parse(text));
      expect([kind, hostile <= Math.max(plain, FLOOR_MS) * RATIO]).toEqual([kind, true]);
    }
  });
});

describe("what the reader finds", () => {
  it("reads the token whatever its attributes' order or quoting, or from data-token", () => {
    expect(pageToken(readPage(`<input value='{A}' type=HIDDEN name="token">`))).toBe("{A}");
    expect(pageToken(readPage(`<form data-token="{B}"><input type="text" name="token" value="{C}">`))).toBe("{B}");
    expect(pageToken(readPage(`<!-- <input type="hidden" name="token" value="{D}"> -->`))).toBeUndefined();
    expect(
      pageToken(readPage(`<script>"<input type='hidden' name='token' value='{E}'>"</SCRIPT ><p>`)),
    ).toBeUndefined();
  });

  it("reads fields, a textarea's among them, and not those in comments", () => {
    const page = readPage(
      `<textarea name="x"><input name="y"></textarea><select name="z"></select><!--<input name="w">-->`,
    );
    expect(["x", "y", "z", "w"].map((name) => hasField(page, name))).toEqual([true, false, true, false]);
  });

  it("takes a message only from a box that is shown, with its entities decoded and spacing collapsed", () => {
    expect(readPage(`<div role="alert"> Kay&#305;t\n  bulunmad&inodot;. </div>`).messages).toEqual([
      "Kayıt bulunmadı.",
    ]);
    expect(readPage(`<div class="hidden"><div class="warningContainer">x</div></div>`).messages).toEqual([]);
    expect(readPage(`<div class="warningContainer">a<span style="DISPLAY : none">b</span>c</div>`).messages).toEqual([
      "a c",
    ]);
  });

  it("takes no message from a page nested deeper than it follows: what is hidden there is unknown", () => {
    const deep = `${"<div>".repeat(MAX_DEPTH)}<div role="alert">Kayıt bulunmadı.</div>`;
    expect(readPage(deep).messages).toEqual([]);
    expect(readPage(`<div role="alert">Kayıt bulunmadı.</div>${"<div>".repeat(MAX_DEPTH - 1)}`).messages).toEqual([
      "Kayıt bulunmadı.",
    ]);
  });

  it("decodes references as a browser does", () => {
    expect(decodeEntities("&scedil;&Idot;&#x130;&#287;&amp&copy &#128; &#0; &#x110000; &unknown; & &")).toBe(
      "şİİğ&© € \uFFFD \uFFFD &unknown; & &",
    );
  });
});
