/**
 * Both e-Devlet adapters against a server scripted page by page, to show how they read what the
 * simulator never gives: where a negative text stands (the page's message, hidden markup, a
 * fragment, the wrong step), the document without its link, pages in windows-1254 with entities,
 * the headers a browser sends, cookies replaced and deleted, every redirect status, and base64
 * broken into lines.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { edevletFormAuthority } from "#shared/adapters/edevlet/form";
import { edevletMobileAuthority } from "#shared/adapters/edevlet/mobile";
import { EDEVLET_FORM, MOBILE_REFUSAL, NEGATIVE_ANSWERS } from "#shared/domain/edevlet";
import type { IssuerLookup } from "#shared/ports/authority";

const LOOKUP: IssuerLookup = {
  documentType: "YOK_STUDENT",
  barcode: "TESTYOK-0001-AKTIF",
  identityNumber: "10000000146",
};
const PDF = Buffer.from("%PDF-1.7\n% the issuer's copy\n%%EOF\n");
const unrecognised = { kind: "unavailable", cause: "unrecognised" } as const;

/** The five steps' pages, as the scripted server names them. */
type Step = "start" | "identity" | "consent" | "result" | "document";
interface Scripted {
  status?: number;
  headers?: Record<string, string | string[]>;
  body: string | Buffer;
}
const { fields } = EDEVLET_FORM;
const TOKEN = "{7B0C2F8E-0000-4000-8000-000000000001}";

/** A page as e-Devlet draws one: its message in the warning box, then its form. */
function page(formFields: string, options: { message?: string; extra?: string } = {}): string {
  const message = options.message
    ? `<div class="fieldsetErrors"><div class="warningContainer"><ul><li>${options.message}</li></ul></div></div>`
    : "";
  return `<!DOCTYPE html><html lang="tr"><head><meta charset="utf-8"><title>Barkodlu Belge Doğrulama</title></head>
<body><main id="pageContent">${message}${options.extra ?? ""}
<form method="post" id="mainForm"><input type="hidden" name="token" value="${TOKEN}">${formFields}
<input type="submit" name="btn" value="Devam Et"></form></main></body></html>`;
}
const FORMS: Record<Exclude<Step, "document" | "result">, string> = {
  start: `<input type="text" name="${fields.barcode}">`,
  identity: `<input type="text" name="${fields.identityNumber}">`,
  consent: `<input type="checkbox" name="${fields.consent}" value="1">`,
};
const html = (body: string | Buffer, headers: Record<string, string> = {}): Scripted => ({
  headers: { "content-type": "text/html; charset=utf-8", ...headers },
  body,
});
const DEFAULTS: Record<Step, () => Scripted> = {
  start: () => html(page(FORMS.start)),
  identity: () => html(page(FORMS.identity)),
  consent: () => html(page(FORMS.consent)),
  result: () => html(page("", { extra: `<p><a href="${EDEVLET_FORM.document}">Belgeyi Göster</a></p>` })),
  document: () => ({ headers: { "content-type": "application/pdf" }, body: PDF }),
};

/** Where each step's page is, after its POST's redirect. */
const PLACES: Record<string, Step> = {
  [EDEVLET_FORM.start]: "start",
  "/belge-dogrulama?islem=dogrulama": "identity",
  "/belge-dogrulama?islem=onay": "consent",
  "/belge-dogrulama?islem=sonuc": "result",
  [EDEVLET_FORM.document]: "document",
};
const AFTER_POST: Record<string, string> = {
  [EDEVLET_FORM.barcode]: "/belge-dogrulama?islem=dogrulama",
  [EDEVLET_FORM.identity]: "/belge-dogrulama?islem=onay",
  [EDEVLET_FORM.consent]: "/belge-dogrulama?islem=sonuc",
};

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
}

let server: Server;
let url = "";
let pages: Partial<Record<Step, () => Scripted>> = {};
/** Answers a request before the script does, when it returns one. */
let intercept: (request: Seen) => Scripted | undefined = () => undefined;
let seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const target = request.url ?? "/";
      const one: Seen = { method: request.method ?? "GET", url: target, headers: request.headers };
      seen.push(one);
      const answer =
        intercept(one) ??
        (request.method === "POST" && AFTER_POST[target]
          ? { status: 302, headers: { location: AFTER_POST[target] }, body: "" }
          : (pages[PLACES[target] ?? "start"] ?? DEFAULTS[PLACES[target] ?? "start"])());
      response.writeHead(answer.status ?? 200, answer.headers).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  pages = {};
  intercept = () => undefined;
  seen = [];
});

const form = () => edevletFormAuthority({ url }).lookup(LOOKUP);

describe("the form: not found only for a documented text shown as the page's message on its step", () => {
  it("reads the documented texts as not found, each on its step, in the message box", async () => {
    pages.identity = () => html(page(FORMS.start, { message: NEGATIVE_ANSWERS.unknownBarcode }));
    expect(await form()).toEqual({ kind: "not_found" });
    pages = {
      consent: () => html(page(FORMS.consent)),
      result: () => html(page("", { message: NEGATIVE_ANSWERS.notHolder })),
    };
    expect(await form()).toEqual({ kind: "not_found" });
  });

  it("reads a negative text at step 5 as unrecognised: anything but a PDF there is", async () => {
    pages.document = () => html(page("", { message: NEGATIVE_ANSWERS.notHolder }));
    expect(await form()).toEqual(unrecognised);
    pages.document = () => html(page("", { message: NEGATIVE_ANSWERS.unknownBarcode }));
    expect(await form()).toEqual(unrecognised);
  });

  it("reads a negative text in hidden markup or outside the message box as unrecognised", async () => {
    const hidden = [
      `<div class="fieldsetErrors" style="display: none"><p>${NEGATIVE_ANSWERS.notHolder}</p></div>`,
      `<div class="fieldsetErrors" hidden><p>${NEGATIVE_ANSWERS.notHolder}</p></div>`,
      `<div aria-hidden="true"><div role="alert">${NEGATIVE_ANSWERS.notHolder}</div></div>`,
      `<template><div class="warningContainer">${NEGATIVE_ANSWERS.notHolder}</div></template>`,
      `<!-- <div class="warningContainer">${NEGATIVE_ANSWERS.notHolder}</div> -->`,
      `<script>var message = '<div class="warningContainer">${NEGATIVE_ANSWERS.notHolder}</div>';</script>`,
      `<p>${NEGATIVE_ANSWERS.notHolder}</p>`,
    ];
    for (const extra of hidden) {
      pages.result = () => html(page("", { extra }));
      pages.document = () => html(page(""));
      expect([extra, await form()]).toEqual([extra, unrecognised]);
    }
  });

  it("reads a fragment of a negative text, or one on another step, as unrecognised", async () => {
    const nearMisses = [
      "Kayıt bulunmadığı için işleminize devam edilemiyor.",
      "Girilen barkod numarası e-Devlet Kapısında tanımlı değildir ya da süresi dolmuştur.",
      "Kayıt bulunmadı mı?",
    ];
    for (const message of nearMisses) {
      pages = { result: () => html(page("", { message })), document: () => html(page("")) };
      expect([message, await form()]).toEqual([message, unrecognised]);
    }
    // The holder's refusal where the barcode's belongs: the page asks for no number, so it is unknown.
    pages = { identity: () => html(page(FORMS.start, { message: NEGATIVE_ANSWERS.notHolder })) };
    expect(await form()).toEqual(unrecognised);
  });

  it("reads the whole sentence among others in the message, in any case, with or without Turkish letters", async () => {
    pages.result = () =>
      html(page("", { message: `İşlem tamamlanamadı. KAYIT BULUNMADI. Lütfen bilgileri kontrol ediniz.` }));
    expect(await form()).toEqual({ kind: "not_found" });
    pages.result = () => html(page("", { message: "Kayit bulunmadi" }));
    expect(await form()).toEqual({ kind: "not_found" });
  });

  it("asks for the document after the consent whether or not the page links to it: a button, a form, nothing", async () => {
    const results = [
      `<button type="button" onclick="window.open('${EDEVLET_FORM.document}')">Belgeyi Göster</button>`,
      `<form action="/belge-dogrulama" method="get"><input type="hidden" name="belge" value="goster"><input type="submit" value="Belgeyi Göster"></form>`,
      "<p>Belge bilgileri doğrulandı.</p>",
    ];
    for (const extra of results) {
      pages.result = () => html(page("", { extra }));
      const answer = await form();
      expect(answer.kind === "found" && Buffer.from(answer.document).equals(PDF)).toBe(true);
    }
  });
});

describe("the mobile endpoint: only the queue and a PDF are read; no refusal means not found", () => {
  const mobile = (body: unknown) => {
    intercept = () => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return edevletMobileAuthority({ url }).lookup(LOOKUP);
  };
  const refused = (message: string) => ({ kuyrukMu: 0, return: false, login: 0, data: null, messageArr: [message] });

  it("reads the documented refusal, the form's negative texts and an unknown message as unrecognised", async () => {
    for (const message of [MOBILE_REFUSAL, NEGATIVE_ANSWERS.unknownBarcode, NEGATIVE_ANSWERS.notHolder, "Hata."]) {
      expect([message, await mobile(refused(message))]).toEqual([message, unrecognised]);
    }
  });

  it("reads base64 broken into lines, as MIME breaks it", async () => {
    const encoded = PDF.toString("base64").replace(/.{8}/g, "$&\r\n");
    const answer = await mobile({
      kuyrukMu: 0,
      return: true,
      login: 0,
      data: { barkodluBelge: encoded },
      messageArr: [],
    });
    expect(answer.kind === "found" && Buffer.from(answer.document).equals(PDF)).toBe(true);
  });
});

describe("talking as a browser", () => {
  it("sends a browser's User-Agent, Accept and Accept-Language on every request, and the previous page as Referer", async () => {
    const answer = await form();
    expect(answer.kind).toBe("found");
    expect(seen.map(({ method, url: target }) => `${method} ${target}`)).toEqual([
      `GET ${EDEVLET_FORM.start}`,
      `POST ${EDEVLET_FORM.barcode}`,
      "GET /belge-dogrulama?islem=dogrulama",
      `POST ${EDEVLET_FORM.identity}`,
      "GET /belge-dogrulama?islem=onay",
      `POST ${EDEVLET_FORM.consent}`,
      "GET /belge-dogrulama?islem=sonuc",
      `GET ${EDEVLET_FORM.document}`,
    ]);
    for (const { headers } of seen) {
      expect(headers["user-agent"]).toMatch(/^Mozilla\/5\.0 \(.+\) .*Chrome\/\d+/);
      expect(headers.accept).toMatch(/^text\/html,/);
      expect(headers["accept-language"]).toBe("tr-TR,tr;q=0.9,en;q=0.8");
    }
    expect(seen.map(({ headers }) => headers.referer)).toEqual([
      undefined,
      `${url}${EDEVLET_FORM.start}`,
      `${url}${EDEVLET_FORM.start}`,
      `${url}/belge-dogrulama?islem=dogrulama`,
      `${url}/belge-dogrulama?islem=dogrulama`,
      `${url}/belge-dogrulama?islem=onay`,
      `${url}/belge-dogrulama?islem=onay`,
      `${url}/belge-dogrulama?islem=sonuc`,
    ]);
  });

  it("reads a windows-1254 page, named by its header or its <meta>, and every entity", async () => {
    const message = "Kay&#305;t bulunmad&#x131;&period;";
    const inWindows1254 = (text: string) =>
      Buffer.from(
        [...text].map(
          (character) =>
            ({ ı: 0xfd, ş: 0xfe, ğ: 0xf0, İ: 0xdd, Ş: 0xde, Ğ: 0xd0 })[character] ?? character.charCodeAt(0),
        ),
      );
    // The message in windows-1254 bytes, the charset in the header.
    pages.result = () =>
      html(inWindows1254(page("", { message: "Kayıt bulunmadı." }).replace('<meta charset="utf-8">', "")), {
        "content-type": "text/html; charset=windows-1254",
      });
    expect(await form()).toEqual({ kind: "not_found" });
    // The charset in a <meta> only.
    pages.result = () =>
      html(inWindows1254(page("", { message: "Kayıt bulunmadı." }).replace("utf-8", "ISO-8859-9")), {
        "content-type": "text/html",
      });
    expect(await form()).toEqual({ kind: "not_found" });
    // Entities, numeric and named.
    pages.result = () => html(page("", { message }));
    expect(await form()).toEqual({ kind: "not_found" });
    pages.identity = () =>
      html(
        page(FORMS.start, {
          message: "Girilen barkod numaras&inodot; e-Devlet Kap&#305;s&#x0131;nda tan&imath;ml&#305; de&gbreve;ildir.",
        }),
      );
    expect(await form()).toEqual({ kind: "not_found" });
  });

  it("refuses a charset e-Devlet is not known to use", async () => {
    pages.result = () =>
      html(page("", { message: "Kayıt bulunmadı." }), { "content-type": "text/html; charset=shift_jis" });
    expect(await form()).toEqual(unrecognised);
  });

  it("keeps cookies as a browser does: set, replaced, deleted by Max-Age=0 or a past Expires, sent by path", async () => {
    pages.start = () => ({
      ...html(page(FORMS.start)),
      headers: {
        "content-type": "text/html",
        "set-cookie": [
          "TURKIYESESSIONID=first; Path=/; HttpOnly",
          "w3p=one; Path=/",
          "gone=soon; Path=/",
          "later=x; Path=/",
          'quoted="a b"; Path=/',
          "elsewhere=no; Path=/baska",
          "foreign=no; Domain=example.com",
        ],
      },
    });
    pages.identity = () => ({
      ...html(page(FORMS.identity)),
      headers: {
        "content-type": "text/html",
        "set-cookie": [
          "TURKIYESESSIONID=second; Path=/",
          "gone=; Max-Age=0; Path=/",
          "later=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/",
        ],
      },
    });
    expect((await form()).kind).toBe("found");
    const cookies = seen.map(({ headers }) => headers.cookie);
    expect(cookies[1]).toBe('TURKIYESESSIONID=first; w3p=one; gone=soon; later=x; quoted="a b"');
    expect(cookies[3]).toBe('TURKIYESESSIONID=second; w3p=one; quoted="a b"');
  });

  it("follows 301, 302, 303, 307 and 308 within the origin; 307 and 308 repeat the POST", async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      seen = [];
      let moved = false;
      intercept = (request) => {
        if (request.method === "POST" && request.url === EDEVLET_FORM.barcode && !moved) {
          moved = true;
          return { status, headers: { location: `${EDEVLET_FORM.barcode}&tasindi=1` }, body: "" };
        }
        if (request.url === `${EDEVLET_FORM.barcode}&tasindi=1`) {
          return request.method === "POST"
            ? { status: 302, headers: { location: "/belge-dogrulama?islem=dogrulama" }, body: "" }
            : DEFAULTS.identity();
        }
        return undefined;
      };
      expect([status, (await form()).kind]).toEqual([status, "found"]);
      const repeated = seen.find((request) => request.url === `${EDEVLET_FORM.barcode}&tasindi=1`);
      expect([status, repeated?.method]).toEqual([status, status >= 307 ? "POST" : "GET"]);
    }
  });
});
