/** The simulator's pages: e-Devlet's frame, the form of each step, the refusals, and the windows-1254 a page may be served in. */

import { EDEVLET_FORM, NEGATIVE_ANSWERS } from "../domain/edevlet.ts";
import { escapeHtml } from "../http/web-assets.ts";
import type { SimulatedBehaviour } from "../ports/issuer-catalogue.ts";
import { BUSY_RETRY_AFTER_SECONDS, FORM_PAGES, SIMULATOR_TEXTS, type SimulatorResponse } from "./protocol.ts";

const HTML = "text/html; charset=utf-8";

/** The windows-1254 bytes of the Turkish letters outside ASCII; `ş` and `Ş` are written as references instead. */
const WINDOWS_1254: Record<string, number> = {
  ç: 0xe7,
  ğ: 0xf0,
  ı: 0xfd,
  ö: 0xf6,
  ü: 0xfc,
  Ç: 0xc7,
  Ğ: 0xd0,
  İ: 0xdd,
  Ö: 0xd6,
  Ü: 0xdc,
};

/** `text` (an HTML page) in windows-1254, `ş` as `&scedil;`, `Ş` as `&#350;`, anything else outside it as a numeric reference. */
function inWindows1254(text: string): Uint8Array {
  const bytes: number[] = [];
  const ascii = (written: string) => {
    for (const character of written) bytes.push(character.charCodeAt(0));
  };
  for (const character of text.replace('<meta charset="utf-8">', '<meta charset="windows-1254">')) {
    const code = character.codePointAt(0) ?? 0;
    const byte = WINDOWS_1254[character];
    if (code < 0x80) bytes.push(code);
    else if (byte !== undefined) bytes.push(byte);
    else if (character === "ş") ascii("&scedil;");
    else if (character === "Ş") ascii("&#350;");
    else ascii(`&#${code};`);
  }
  return new Uint8Array(bytes);
}

export function page(title: string, content: string, notice?: string): string {
  const alert = notice
    ? `\n<div class="fieldsetErrors warningContainer" role="alert"><p>${escapeHtml(notice)}</p></div>`
    : "";
  return `<!DOCTYPE html>
<html lang="tr" dir="ltr">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)} | e-Devlet Kapısı</title>
</head>
<body class="pageService">
<header id="pageHeader"><a href="/" class="logo">e-Devlet Kapısı</a></header>
<main id="pageContent">
<section id="serviceContent">
<h1>${escapeHtml(title)}</h1>${alert}
${content}
</section>
</main>
<footer id="pageFooter"><p>Bu sayfa e-Devlet Kapısının barkodlu belge doğrulamasının test amaçlı bir benzetimidir.</p></footer>
</body>
</html>
`;
}

/** A form as e-Devlet's pages carry it: the token in a hidden input, and on the form as `data-token`. */
export function form(action: string, token: string, fields: string): string {
  return `<form action="${escapeHtml(action)}" method="post" id="mainForm" class="resultForm" data-token="${escapeHtml(token)}">
<fieldset>
${fields}
</fieldset>
<input type="hidden" name="token" value="${escapeHtml(token)}">
<div class="formSubmitRow"><input type="submit" name="${EDEVLET_FORM.fields.button}" class="submitButton" value="${EDEVLET_FORM.button}"></div>
</form>`;
}

export const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

export function startPage(token: string, notice?: string): string {
  const field = EDEVLET_FORM.fields.barcode;
  return page(
    SIMULATOR_TEXTS.title,
    `${paragraph(SIMULATOR_TEXTS.introduction)}
${form(
  EDEVLET_FORM.barcode,
  token,
  `<div class="formRow"><label for="${field}">Barkod Numarası</label>
<input type="text" name="${field}" id="${field}" maxlength="40" autocomplete="off" required></div>`,
)}`,
    notice,
  );
}

export function identityPage(token: string, barcode: string, notice?: string): string {
  const field = EDEVLET_FORM.fields.identityNumber;
  return page(
    SIMULATOR_TEXTS.title,
    `<dl class="compact"><dt>Barkod Numarası</dt><dd>${escapeHtml(barcode)}</dd></dl>
${paragraph(SIMULATOR_TEXTS.identityPrompt)}
${form(
  EDEVLET_FORM.identity,
  token,
  `<div class="formRow"><label for="${field}">T.C. Kimlik Numarası</label>
<input type="text" name="${field}" id="${field}" maxlength="11" inputmode="numeric" autocomplete="off" required></div>`,
)}`,
    notice,
  );
}

export function consentPage(token: string, notice?: string): string {
  const field = EDEVLET_FORM.fields.consent;
  return page(
    SIMULATOR_TEXTS.title,
    form(
      EDEVLET_FORM.consent,
      token,
      `${paragraph(SIMULATOR_TEXTS.consent)}
<div class="formRow checkboxRow"><input type="checkbox" name="${field}" id="${field}" value="1">
<label for="${field}">${escapeHtml(SIMULATOR_TEXTS.consentLabel)}</label></div>`,
    ),
    notice,
  );
}

/** The page after the consent: the link to the document, or (`button`) a button, or (`hidden-negative`) negative texts nobody sees beside it. */
export function resultPage(behaviour: SimulatedBehaviour | undefined): string {
  const link =
    behaviour === "button"
      ? `<button type="button" class="documentLink" onclick="window.open('${escapeHtml(FORM_PAGES.document)}')">${escapeHtml(SIMULATOR_TEXTS.documentLink)}</button>`
      : `<a href="${escapeHtml(FORM_PAGES.document)}" class="documentLink" target="_blank">${escapeHtml(SIMULATOR_TEXTS.documentLink)}</a>`;
  const hidden =
    behaviour === "hidden-negative"
      ? `\n<div class="fieldsetErrors warningContainer" role="alert" style="display: none"><p>${escapeHtml(NEGATIVE_ANSWERS.notHolder)}</p></div>
<!-- <div class="warningContainer">${escapeHtml(NEGATIVE_ANSWERS.unknownBarcode)}</div> -->`
      : "";
  return page(SIMULATOR_TEXTS.title, `${paragraph(SIMULATOR_TEXTS.result)}${hidden}\n<p>${link}</p>`);
}

export function challengePage(token: string): string {
  return page(
    "Güvenlik Doğrulaması",
    `${paragraph(SIMULATOR_TEXTS.challenge)}
${form(
  EDEVLET_FORM.barcode,
  token,
  `<div class="formRow"><img src="/captcha.png" alt="Güvenlik kodu">
<label for="guvenlikKodu">Güvenlik Kodu</label>
<input type="text" name="guvenlikKodu" id="guvenlikKodu" maxlength="6" autocomplete="off" required></div>`,
)}`,
  );
}

export const html = (
  status: number,
  body: string,
  cookies: string[] = [],
  headers: Record<string, string> = {},
): SimulatorResponse => ({
  status,
  headers: { "content-type": HTML, "cache-control": "no-store", ...headers },
  cookies,
  body,
});

/** A page as `windows-1254` serves it. */
export function encoded1254(response: SimulatorResponse): SimulatorResponse {
  if (typeof response.body !== "string") return response;
  return {
    ...response,
    headers: { ...response.headers, "content-type": "text/html; charset=windows-1254" },
    body: inWindows1254(response.body),
  };
}

export const busyPage = () =>
  html(429, page(SIMULATOR_TEXTS.title, paragraph(SIMULATOR_TEXTS.busy)), [], {
    "retry-after": String(BUSY_RETRY_AFTER_SECONDS),
  });
export const errorPage = () => html(500, page(SIMULATOR_TEXTS.title, paragraph(SIMULATOR_TEXTS.error)));
export const forbiddenPage = () => html(403, page(SIMULATOR_TEXTS.title, paragraph(SIMULATOR_TEXTS.browserOnly)));
export const notFoundPage = () => html(404, page("Sayfa Bulunamadı", paragraph(SIMULATOR_TEXTS.notFound)));

/** What `not-pdf` serves where the document should be. */
export const NOT_A_PDF = new TextEncoder().encode(
  page(SIMULATOR_TEXTS.title, paragraph(SIMULATOR_TEXTS.documentUnavailable)),
);
