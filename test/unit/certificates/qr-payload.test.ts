/**
 * The QR payload e-Devlet's own verification app reads,
 * `barkodlubelgedogrulama://barkod: <barcode>;tckn:<T.C. number>` (edevlet.md, section 3),
 * rendered every way real documents and clients print it: the scheme there or not, any case,
 * spaces around names and values, the pairs in either order, a trailing `;`, further items after
 * the pairs. Each reads back to exactly the keys it was made from; the verification link and
 * the bare barcode still read; and no payload at all makes the reader throw.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentKeys, isBarcode, isIdentityNumber } from "#shared/domain/certificates/keys";
import { identityCheckDigits } from "../../../scripts/test-documents/certificate.ts";
import { anyText } from "./arbitraries.ts";

const TCKN = "10000000146";
/** The YÖK barcode edevlet.md gives as an example. */
const YOK_BARCODE = "YOKTRES91R5DZ9RHHV";
const SCHEME = "barkodlubelgedogrulama://";

const qr = (...qrCodes: string[]) => documentKeys({ lines: [], qrCodes });

/** A barcode e-Devlet could print: 8 to 40 of A-Z, 0-9 and hyphens. */
const barcode = fc.stringMatching(/^[A-Z0-9-]{8,40}$/);
/** A T.C. identity number: nine digits, the first not 0, and the two check digits the rule gives. */
const identityNumber = fc.stringMatching(/^[1-9][0-9]{8}$/).map((nine) => `${nine}${identityCheckDigits(nine)}`);
/** Spaces a printer or a person may leave around a name or a value. */
const spaces = fc.constantFrom("", " ", "  ", "\t", " \t ");
/** What a transcript appends after the pairs: a link that may hold `?`, `=` and `;` itself. */
const furtherItem = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    "https://www.turkiye.gov.tr/belge-dogrulama?belge=1;sayfa=2",
    "https://transkript.example.edu.tr/dogrula?kod=ABC=;x",
    "",
  ),
);

/** `name`, then `:`, then a `value`, with spaces around each and the name in any case. */
const pair = (name: string, value: fc.Arbitrary<string>) =>
  fc
    .tuple(spaces, fc.mixedCase(fc.constant(name)), spaces, spaces, value, spaces)
    .map(([before, cased, beforeColon, afterColon, printed, after]) =>
      [before, cased, beforeColon, ":", afterColon, printed, after].join(""),
    );

/** `text` with each letter in either case. */
const anyCase = (text: string) => fc.mixedCase(fc.constant(text));

/** The app's payload for `keys`, rendered at random; the barcode in any case. */
const appPayload = (keys: { barcode: string; identityNumber?: string }) =>
  fc
    .record({
      scheme: fc.option(anyCase(SCHEME), { nil: "" }),
      barcodePair: pair("barkod", anyCase(keys.barcode)),
      identityPair:
        keys.identityNumber === undefined ? fc.constant(undefined) : pair("tckn", fc.constant(keys.identityNumber)),
      identityFirst: fc.boolean(),
      further: fc.array(furtherItem, { maxLength: 3 }),
      trailing: fc.constantFrom("", ";"),
      around: fc.tuple(spaces, spaces),
    })
    .map(({ scheme, barcodePair, identityPair, identityFirst, further, trailing, around }) => {
      const pairs = identityPair === undefined ? [barcodePair] : [barcodePair, identityPair];
      if (identityFirst) pairs.reverse();
      return `${around[0]}${scheme}${[...pairs, ...further].join(";")}${trailing}${around[1]}`;
    });

describe("the payload e-Devlet's verification app reads", () => {
  it("reads the forms edevlet.md gives", () => {
    const both = { barcode: YOK_BARCODE, identityNumber: TCKN };
    expect(qr(`barkodlubelgedogrulama://barkod: ${YOK_BARCODE};tckn:${TCKN}`)).toEqual(both);
    expect(qr(`barkodlubelgedogrulama://barkod:${YOK_BARCODE};tckn:${TCKN}`)).toEqual(both);
    expect(qr(`barkod:${YOK_BARCODE};tckn:${TCKN};`)).toEqual(both);
    expect(qr(`barkodlubelgedogrulama://barkod:${YOK_BARCODE};tckn:${TCKN};`)).toEqual(both);
    expect(
      qr(`barkod: ${YOK_BARCODE};tckn:${TCKN};https://www.turkiye.gov.tr/belge-dogrulama?belge=transkript;x=1`),
    ).toEqual(both);
  });

  it("reads names in any case, spaces around names and values, and the pairs in either order", () => {
    const both = { barcode: YOK_BARCODE, identityNumber: TCKN };
    expect(qr(`BARKODLUBELGEDOGRULAMA://BARKOD:${YOK_BARCODE};TCKN:${TCKN}`)).toEqual(both);
    expect(qr(`Barkod: ${YOK_BARCODE}; Tckn: ${TCKN}`)).toEqual(both);
    expect(qr(`barkod: ${YOK_BARCODE} ; tckn : ${TCKN}`)).toEqual(both);
    expect(qr(`tckn:${TCKN};barkod: ${YOK_BARCODE}`)).toEqual(both);
    expect(qr(`barkodlubelgedogrulama:// tckn:${TCKN};barkod:${YOK_BARCODE.toLowerCase()};`)).toEqual(both);
  });

  it("reads a payload with only the barcode", () => {
    expect(qr(`barkodlubelgedogrulama://barkod: ${YOK_BARCODE}`)).toEqual({ barcode: YOK_BARCODE });
    expect(qr(`barkod:${YOK_BARCODE};`)).toEqual({ barcode: YOK_BARCODE });
  });

  it("counts a malformed value as absent, keeping the other key", () => {
    expect(qr(`barkod: ${YOK_BARCODE};tckn:10000000147`)).toEqual({ barcode: YOK_BARCODE });
    expect(qr(`barkod: YOK_TRES;tckn:${TCKN}`)).toEqual({ identityNumber: TCKN });
    expect(qr(`barkod: YOK TRES91R5DZ9RHHV;tckn:${TCKN}`)).toEqual({ identityNumber: TCKN });
    expect(qr(`barkodlubelgedogrulama://barkod:;tckn:`)).toEqual({});
    expect(qr(`barkodlubelgedogrulama://${YOK_BARCODE}`)).toEqual({});
  });

  it("reads back every rendering to exactly the keys it was made from", () => {
    const keys = fc.record({ barcode, identityNumber: fc.option(identityNumber, { nil: undefined }) });
    fc.assert(
      fc.property(
        keys.chain((made) => appPayload(made).map((payload) => ({ made, payload }))),
        ({ made, payload }) => {
          const expected = made.identityNumber === undefined ? { barcode: made.barcode } : made;
          expect(qr(payload), payload).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("the other QR payloads", () => {
  it("still reads a verification link, with or without its scheme, under each parameter name", () => {
    const link = fc.record({
      barcode,
      identityNumber,
      page: fc.constantFrom("https://www.turkiye.gov.tr/belge-dogrulama", "turkiye.gov.tr/belge-dogrulama", ""),
      parameter: fc.constantFrom("barkod", "belgeNo", "barcode").chain(anyCase),
      identityFirst: fc.boolean(),
    });
    fc.assert(
      fc.property(link, ({ barcode, identityNumber, page, parameter, identityFirst }) => {
        const query = [`${parameter}=${barcode.toLowerCase()}`, `tckn=${identityNumber}`];
        if (identityFirst) query.reverse();
        expect(qr(`${page}?${query.join("&")}`)).toEqual({ barcode, identityNumber });
      }),
    );
  });

  it("still reads a bare barcode, in any case and with spaces around it", () => {
    const bare = barcode.chain((code) => fc.tuple(fc.constant(code), anyCase(code), spaces, spaces));
    fc.assert(
      fc.property(bare, ([code, printed, before, after]) => {
        expect(qr(`${before}${printed}${after}`)).toEqual({ barcode: code });
      }),
    );
  });
});

describe("documentKeys on any QR payload", () => {
  it("never throws, and what it returns is well formed", () => {
    const anything = fc.oneof(
      fc.string({ unit: "binary", maxLength: 80 }),
      anyText,
      fc
        .tuple(
          fc.constantFrom(SCHEME, "BARKODLUBELGEDOGRULAMA://", "barkod:", "tckn :", "https://x.example/?barkod=", ""),
          fc.string({ unit: "binary", maxLength: 60 }),
          fc.array(fc.oneof(anyText, fc.constantFrom("barkod:", "tckn:", ";", "?", "=", "&", "%")), { maxLength: 6 }),
        )
        .map(([start, middle, pieces]) => `${start}${middle}${pieces.join("")}`),
    );
    fc.assert(
      fc.property(anything, (payload) => {
        const found = qr(payload);
        expect(found.barcode === undefined || isBarcode(found.barcode), payload).toBe(true);
        expect(found.identityNumber === undefined || isIdentityNumber(found.identityNumber), payload).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
