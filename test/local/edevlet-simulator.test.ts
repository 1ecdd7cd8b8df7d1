/**
 * The e-Devlet simulator's faithfulness to edevlet.md, apart from any adapter: its pages, cookies,
 * tokens and 302s, the negative texts exactly, the session kept in signed cookies, the mobile
 * JSON's shape, and the local server's count of lookups in flight.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { EDEVLET_BROWSER, EDEVLET_FORM, NEGATIVE_ANSWERS, says } from "#shared/domain/edevlet";
import type { SimulatedHolding } from "#shared/ports/issuer-catalogue";
import {
  CHURN_COOKIE,
  FORM_PAGES,
  MOVED_BARCODE_STEP,
  SESSION_LIFETIME_MS,
  SIMULATOR_TEXTS,
  type SimulatorRequest,
} from "#shared/simulator/protocol";
import { edevletSimulator } from "#shared/simulator/simulator";
import {
  type EdevletSimulator,
  SESSION_IDLE_MS,
  type SimulatorHandler,
  startEdevletSimulator,
} from "../../local/edevlet.ts";
import { CATALOGUE } from "../../scripts/test-documents/catalogue.ts";
import { certificatePdf, syntheticIdentityNumber } from "../../scripts/test-documents/certificate.ts";

const PUBLISHED = path.resolve(__dirname, "../../docs/test-documents/issuer");
const BARCODE = "TESTGSB-0001-KALIYOR";
const FILE = path.join(PUBLISHED, "GSB_KYK_DORM", `${BARCODE}.pdf`);
const HOLDER = syntheticIdentityNumber(2);
const SOMEONE_ELSE = syntheticIdentityNumber(1);

/** A barcode per behaviour where e-Devlet might disagree with the adapter; the active student's certificate under each. */
const DISAGREEING = {
  button: "SIMNEW-0001-BUTTON",
  "windows-1254": "SIMNEW-0002-WIN1254",
  "negative-at-document": "SIMNEW-0003-NEGDOC",
  "hidden-negative": "SIMNEW-0004-HIDDEN",
  "near-miss": "SIMNEW-0005-NEARMISS",
  "redirect-307": "SIMNEW-0006-MOVED",
  "cookie-churn": "SIMNEW-0007-CHURN",
  "browser-only": "SIMNEW-0008-BROWSER",
  rerendered: "SIMNEW-0009-RENDER",
} as const;
/** The active student's number, printed in each of those certificates. */
const STUDENT = syntheticIdentityNumber(1);

let folder = "";
let handler: SimulatorHandler;
let simulator: EdevletSimulator;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "edevlet-simulator-"));
  mkdirSync(path.join(folder, "a/b"), { recursive: true });
  copyFileSync(FILE, path.join(folder, "a/b", "TESTGSB-0001-KALIYOR.pdf"));
  for (const marker of ["SIMBUSY-0001.busy", "SIMERROR-0001.error", "SIMSLOW-0001.slow", "SIMODD-0001.unrecognised"]) {
    writeFileSync(path.join(folder, "a", marker), "");
  }
  // The active student under a barcode per behaviour where e-Devlet might disagree with the adapter.
  const entry = CATALOGUE.find((candidate) => candidate.file === "yok-active.pdf");
  if (entry?.upload.kind !== "pdf" || entry.upload.spec.documentType !== "YOK_STUDENT")
    throw new Error("no yok-active.pdf");
  const spec = entry.upload.spec;
  for (const [behaviour, barcode] of Object.entries(DISAGREEING)) {
    writeFileSync(path.join(folder, "a", `${barcode}.pdf`), await certificatePdf({ ...spec, barcode }));
    writeFileSync(path.join(folder, "a", `${barcode}.${behaviour}`), "");
  }
  Object.assign(process.env, {
    SIMULATOR_DOCUMENTS: folder,
    SIMULATOR_KEY: "edevlet-simulator-test-key-of-32-chars-or-more",
  });
  ({ handler } = (await import("../../functions/edevlet-simulator.ts")) as { handler: SimulatorHandler });
  simulator = await startEdevletSimulator(handler, 0);
});
afterAll(async () => {
  await simulator?.stop();
  rmSync(folder, { recursive: true, force: true });
});

interface Reply {
  status: number;
  location: string | null;
  type: string | null;
  setCookies: string[];
  retryAfter: string | null;
  body: Buffer;
  text: string;
}

/** A browser-like client of the form: it keeps every cookie, follows nothing by itself. */
function client(base = () => simulator.url) {
  const jar = new Map<string, string>();
  const send = async (target: string, init: RequestInit = {}): Promise<Reply> => {
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(new URL(target, base()), { ...init, headers, redirect: "manual" });
    const setCookies = response.headers.getSetCookie();
    for (const cookie of setCookies) {
      const [pair = ""] = cookie.split(";");
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    const body = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      location: response.headers.get("location"),
      type: response.headers.get("content-type"),
      setCookies,
      retryAfter: response.headers.get("retry-after"),
      body,
      text: body.toString("utf8"),
    };
  };
  const post = (target: string, fields: Record<string, string>) =>
    send(target, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...fields, btn: "Devam Et" }).toString(),
    });
  return { jar, send, post };
}

const tokenOf = (html: string) =>
  /<input type="hidden" name="token" value="(\{[0-9A-F-]{36}\})">/.exec(html)?.[1] ?? "";
const visible = (html: string) => html.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ");

/** Walks the form as far as it goes, following each POST's redirect; the client and every reply, in order. */
async function walk(barcode: string, number: string) {
  const browser = client();
  const pages: Reply[] = [await browser.send(EDEVLET_FORM.start)];
  const steps: [string, Record<string, string>][] = [
    [EDEVLET_FORM.barcode, { sorgulananBarkod: barcode }],
    [EDEVLET_FORM.identity, { ikinciAlan: number }],
    [EDEVLET_FORM.consent, { chkOnay: "1" }],
  ];
  for (const [target, fields] of steps) {
    const posted = await browser.post(target, { token: tokenOf(pages.at(-1)?.text ?? ""), ...fields });
    pages.push(posted);
    if (posted.status !== 302 || !posted.location) break;
    pages.push(await browser.send(posted.location));
  }
  return { browser, pages };
}

/** Whether `text` says one of the negative answers as a sentence of its own, anywhere. */
const saysNegative = (text: string) => Object.values(NEGATIVE_ANSWERS).some((negative) => says(text, negative));

describe("the simulator's web form", () => {
  it("starts a session: an e-Devlet-like page, the two cookies, and a token in the input and as data-token", async () => {
    const start = await client().send(EDEVLET_FORM.start);
    expect(start.status).toBe(200);
    expect(start.type).toBe("text/html; charset=utf-8");
    expect(start.setCookies.map((cookie) => cookie.split("=")[0])).toEqual([EDEVLET_FORM.sessionCookie, "w3p"]);
    const token = tokenOf(start.text);
    expect(token).not.toBe("");
    expect(start.text).toContain(`data-token="${token}"`);
    expect(start.text).toContain(`<form action="${EDEVLET_FORM.barcode.replace("&", "&amp;")}" method="post"`);
    expect(start.text).toContain(`name="${EDEVLET_FORM.fields.barcode}"`);
    expect(start.text).toContain('<input type="submit" name="btn" class="submitButton" value="Devam Et">');
    expect(start.text).toContain("<title>Barkodlu Belge Doğrulama | e-Devlet Kapısı</title>");
  });

  it("draws a new token on every page and renews both cookies, keeping the session id", async () => {
    const browser = client();
    const first = await browser.send(EDEVLET_FORM.start);
    const id = browser.jar.get(EDEVLET_FORM.sessionCookie);
    const state = browser.jar.get("w3p");
    const again = await browser.send(EDEVLET_FORM.start);
    expect(tokenOf(again.text)).not.toBe(tokenOf(first.text));
    expect(browser.jar.get(EDEVLET_FORM.sessionCookie)).toBe(id);
    expect(browser.jar.get("w3p")).not.toBe(state);
  });

  it("walks the five steps: each POST a 302 to the next page, the consent, the link, then the PDF", async () => {
    const { browser, pages } = await walk(BARCODE, HOLDER);
    expect(pages.map((page) => [page.status, page.location])).toEqual([
      [200, null],
      [302, FORM_PAGES.identity],
      [200, null],
      [302, FORM_PAGES.consent],
      [200, null],
      [302, FORM_PAGES.result],
      [200, null],
    ]);
    const [, , identity, , consent, , result] = pages;
    expect(identity?.text).toContain(`name="${EDEVLET_FORM.fields.identityNumber}"`);
    expect(identity?.text).toContain(BARCODE);
    expect(consent?.text).toContain('<input type="checkbox" name="chkOnay" id="chkOnay" value="1">');
    expect(consent?.text).toContain(SIMULATOR_TEXTS.consent);
    expect(result?.text).toContain('href="/belge-dogrulama?belge=goster&amp;goster=1"');
    const tokens = pages.map((page) => tokenOf(page.text)).filter(Boolean);
    expect(new Set(tokens).size).toBe(3);

    const document = await browser.send(EDEVLET_FORM.document);
    expect(document.status).toBe(200);
    expect(document.type).toBe("application/pdf");
    expect(document.body.equals(await readFile(FILE))).toBe(true);
    // The link as the page gives it serves the same copy.
    expect((await browser.send(FORM_PAGES.document)).body.equals(document.body)).toBe(true);
  });

  it("keeps the barcode and whether the number matched in its cookie, never the number", async () => {
    const { browser, pages } = await walk(BARCODE, HOLDER);
    const [payload = ""] = (browser.jar.get("w3p") ?? "").split(".");
    expect(JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))).toMatchObject({ barcode: BARCODE });
    for (const page of pages) {
      expect(page.text).not.toContain(HOLDER);
      for (const cookie of page.setCookies) {
        const [value = ""] = cookie.slice(cookie.indexOf("=") + 1).split(".");
        expect(`${cookie} ${Buffer.from(value, "base64url").toString("utf8")}`).not.toContain(HOLDER);
      }
    }
  });

  it("answers an unknown barcode with the form again and the exact negative text, shown once", async () => {
    const { browser, pages } = await walk("TESTGSB-9999-YOK", HOLDER);
    expect(pages[1]?.location).toBe(EDEVLET_FORM.start);
    expect(visible(pages[2]?.text ?? "")).toContain(NEGATIVE_ANSWERS.unknownBarcode);
    expect(pages[2]?.text).toContain(`name="${EDEVLET_FORM.fields.barcode}"`);
    expect(visible((await browser.send(EDEVLET_FORM.start)).text)).not.toContain(NEGATIVE_ANSWERS.unknownBarcode);
  });

  it("takes another person's number at step 3 and refuses at step 4 with the exact negative text", async () => {
    const { browser, pages } = await walk(BARCODE, SOMEONE_ELSE);
    expect(pages[3]?.location).toBe(FORM_PAGES.consent);
    expect(pages[5]?.location).toBe(EDEVLET_FORM.start);
    expect(visible(pages[6]?.text ?? "")).toContain(NEGATIVE_ANSWERS.notHolder);
    const document = await browser.send(EDEVLET_FORM.document);
    expect([document.status, document.location]).toEqual([302, EDEVLET_FORM.start]);
  });

  it("asks again for a malformed number and for a consent not given", async () => {
    const browser = client();
    const start = await browser.send(EDEVLET_FORM.start);
    const second = await browser.post(EDEVLET_FORM.barcode, { token: tokenOf(start.text), sorgulananBarkod: BARCODE });
    const identity = await browser.send(second.location ?? "");
    const wrong = await browser.post(EDEVLET_FORM.identity, {
      token: tokenOf(identity.text),
      ikinciAlan: "12345678901",
    });
    expect(wrong.location).toBe(FORM_PAGES.identity);
    const again = await browser.send(FORM_PAGES.identity);
    expect(visible(again.text)).toContain(SIMULATOR_TEXTS.invalidNumber);
    const third = await browser.post(EDEVLET_FORM.identity, { token: tokenOf(again.text), ikinciAlan: HOLDER });
    const consent = await browser.send(third.location ?? "");
    const unticked = await browser.post(EDEVLET_FORM.consent, { token: tokenOf(consent.text) });
    expect(unticked.location).toBe(FORM_PAGES.consent);
    expect(visible((await browser.send(FORM_PAGES.consent)).text)).toContain(SIMULATOR_TEXTS.consentMissing);
  });

  it("sends a step out of order to the start page, in a fresh session, with a warning that is no negative answer", async () => {
    const browser = client();
    await browser.send(EDEVLET_FORM.start);
    const id = browser.jar.get(EDEVLET_FORM.sessionCookie);
    const skipped = await browser.send(FORM_PAGES.consent);
    expect([skipped.status, skipped.location]).toEqual([302, EDEVLET_FORM.start]);
    expect(browser.jar.get(EDEVLET_FORM.sessionCookie)).not.toBe(id);
    const landing = await browser.send(EDEVLET_FORM.start);
    expect(visible(landing.text)).toContain(SIMULATOR_TEXTS.restarted);
    expect(saysNegative(visible(landing.text))).toBe(false);
    for (const text of Object.values(SIMULATOR_TEXTS)) expect(saysNegative(text)).toBe(false);
  });

  it("refuses a state cookie altered by the client, though its signature is kept", async () => {
    const { browser } = await walk(BARCODE, SOMEONE_ELSE);
    const [, mac] = (browser.jar.get("w3p") ?? "").split(".");
    const forged = { step: "document", barcode: BARCODE, expires: Date.now() + 60_000 };
    browser.jar.set("w3p", `${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${mac}`);
    const document = await browser.send(EDEVLET_FORM.document);
    expect([document.status, document.location]).toEqual([302, EDEVLET_FORM.start]);
  });

  it("answers a busy barcode 429 with Retry-After, an error one 500, an unrecognised one a page with no known field", async () => {
    const busy = await walk("SIMBUSY-0001", HOLDER);
    expect([busy.pages[1]?.status, busy.pages[1]?.retryAfter]).toEqual([429, "30"]);
    expect((await walk("SIMERROR-0001", HOLDER)).pages[1]?.status).toBe(500);
    const odd = (await walk("SIMODD-0001", HOLDER)).pages[1];
    expect(odd?.status).toBe(200);
    expect(tokenOf(odd?.text ?? "")).not.toBe("");
    expect(odd?.text).not.toContain(`name="${EDEVLET_FORM.fields.identityNumber}"`);
    expect(saysNegative(visible(odd?.text ?? ""))).toBe(false);
  });
});

describe("the simulator where e-Devlet might disagree with the adapter, over HTTP", () => {
  const isPdfBody = (reply: Reply) => reply.body.subarray(0, 5).toString("latin1") === "%PDF-";
  const lastPage = (pages: Reply[]) => pages.at(-1)?.text ?? "";

  it("button: the result page draws a button and no link; the document is served all the same", async () => {
    const { browser, pages } = await walk(DISAGREEING.button, STUDENT);
    expect(lastPage(pages)).toContain("<button");
    expect(lastPage(pages)).not.toContain('<a href="/belge-dogrulama?belge=goster');
    expect(isPdfBody(await browser.send(EDEVLET_FORM.document))).toBe(true);
  });

  it("windows-1254: the pages after step 2 in that charset, ş as a reference; another holder refused on the consent page", async () => {
    const { pages } = await walk(DISAGREEING["windows-1254"], STUDENT);
    const consent = pages[4];
    expect(consent?.type).toBe("text/html; charset=windows-1254");
    expect(consent?.text).toContain('<meta charset="windows-1254">');
    expect(consent?.text).toContain("ki&scedil;i");
    expect(new TextDecoder("windows-1254").decode(pages[2]?.body)).toContain("Kimlik Numarasını");
    const refused = await walk(DISAGREEING["windows-1254"], syntheticIdentityNumber(90));
    const page = new TextDecoder("windows-1254").decode(refused.pages.at(-1)?.body);
    expect(refused.pages.at(-2)?.location).toBe(FORM_PAGES.consent);
    expect(page).toContain("Kayıt bulunmadı.");
  });

  it("negative-at-document: step 5 answers a page whose message is a negative text", async () => {
    const { browser } = await walk(DISAGREEING["negative-at-document"], STUDENT);
    const document = await browser.send(EDEVLET_FORM.document);
    expect([document.status, document.type, isPdfBody(document)]).toEqual([200, "text/html; charset=utf-8", false]);
    expect(document.text).toContain(`role="alert"><p>${NEGATIVE_ANSWERS.notHolder}</p>`);
  });

  it("hidden-negative: the result page hides both negative texts; the document follows", async () => {
    const { browser, pages } = await walk(DISAGREEING["hidden-negative"], STUDENT);
    expect(lastPage(pages)).toContain(`style="display: none"><p>${NEGATIVE_ANSWERS.notHolder}</p>`);
    expect(lastPage(pages)).toContain(
      `<!-- <div class="warningContainer">${NEGATIVE_ANSWERS.unknownBarcode}</div> -->`,
    );
    expect(isPdfBody(await browser.send(EDEVLET_FORM.document))).toBe(true);
  });

  it("near-miss: the consent lands on the start page with a message that is no negative text, and no document", async () => {
    const { browser, pages } = await walk(DISAGREEING["near-miss"], STUDENT);
    expect(visible(lastPage(pages))).toContain(SIMULATOR_TEXTS.nearMiss);
    expect(saysNegative(visible(lastPage(pages)))).toBe(false);
    expect(isPdfBody(await browser.send(EDEVLET_FORM.document))).toBe(false);
  });

  it("redirect-307: step 2's POST answers 307, and the same POST sent where it points goes on", async () => {
    const browser = client();
    const token = tokenOf((await browser.send(EDEVLET_FORM.start)).text);
    const fields = { token, sorgulananBarkod: DISAGREEING["redirect-307"] };
    const moved = await browser.post(EDEVLET_FORM.barcode, fields);
    expect([moved.status, moved.location]).toEqual([307, MOVED_BARCODE_STEP]);
    const again = await browser.post(MOVED_BARCODE_STEP, fields);
    expect([again.status, again.location]).toEqual([302, FORM_PAGES.identity]);
  });

  it("cookie-churn: step 2 sets a cookie step 3 deletes; a client that still sends it starts over at step 4", async () => {
    const { pages } = await walk(DISAGREEING["cookie-churn"], STUDENT);
    expect(pages[1]?.setCookies).toContain(`${CHURN_COOKIE}=1; Path=/`);
    expect(pages[3]?.setCookies).toContain(`${CHURN_COOKIE}=; Max-Age=0; Path=/`);
    // This client keeps the deleted cookie (with an empty value) and sends it.
    expect([pages[5]?.status, pages[5]?.location]).toEqual([302, EDEVLET_FORM.start]);
  });

  it("browser-only: without a browser's User-Agent, 403 at step 2 and on the mobile endpoint; with one, on", async () => {
    const barcode = DISAGREEING["browser-only"];
    const { pages } = await walk(barcode, STUDENT);
    expect(pages[1]?.status).toBe(403);
    const mobile = `${simulator.url}/api.php?p=belge-dogrulama&qr=barkod:${barcode};tckn:${STUDENT};`;
    expect((await fetch(mobile)).status).toBe(403);
    expect((await fetch(mobile, { headers: { "user-agent": EDEVLET_BROWSER.userAgent } })).status).toBe(200);
    const browser = client();
    const token = tokenOf((await browser.send(EDEVLET_FORM.start)).text);
    const posted = await browser.send(EDEVLET_FORM.barcode, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": EDEVLET_BROWSER.userAgent },
      body: new URLSearchParams({ token, sorgulananBarkod: barcode, btn: "Devam Et" }).toString(),
    });
    expect([posted.status, posted.location]).toEqual([302, FORM_PAGES.identity]);
  });

  it("rerendered: every lookup's copy has other bytes, a PDF each time", async () => {
    const copies: Buffer[] = [];
    for (let lookup = 0; lookup < 2; lookup += 1) {
      const { browser } = await walk(DISAGREEING.rerendered, STUDENT);
      const document = await browser.send(EDEVLET_FORM.document);
      expect(isPdfBody(document)).toBe(true);
      copies.push(document.body);
    }
    expect(copies[0]?.equals(copies[1] ?? Buffer.alloc(0))).toBe(false);
  });
});

describe("the simulator's mobile endpoint", () => {
  const ask = async (qr: string) => {
    const response = await fetch(`${simulator.url}/api.php?p=belge-dogrulama&qr=${qr}`);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    return (await response.json()) as Record<string, unknown>;
  };

  it("answers found exactly as edevlet.md shows, the PDF in base64", async () => {
    const answer = await ask(`barkod:${BARCODE};tckn:${HOLDER};`);
    expect(Object.keys(answer)).toEqual(["TURKIYESESSIONID", "kuyrukMu", "return", "login", "data", "messageArr"]);
    expect(answer).toMatchObject({ kuyrukMu: 0, return: true, login: 0, messageArr: [] });
    const data = answer.data as Record<string, unknown>;
    expect(Object.keys(data)).toEqual([
      "kimlikNo",
      "verildigiKurum",
      "olusturulmaTarihi",
      "barkodluBelge",
      "dynamic",
      "kod",
    ]);
    expect(data).toMatchObject({ kimlikNo: "", verildigiKurum: null, olusturulmaTarihi: null, dynamic: 1, kod: 0 });
    expect(Buffer.from(String(data.barkodluBelge), "base64").equals(await readFile(FILE))).toBe(true);
  });

  it("reads the qr percent-encoded, with the app's scheme, and with a space after barkod:", async () => {
    for (const qr of [
      encodeURIComponent(`barkod:${BARCODE};tckn:${HOLDER};`),
      `barkodlubelgedogrulama://barkod:%20${BARCODE};tckn:${HOLDER}`,
    ]) {
      expect((await ask(qr)).return).toBe(true);
    }
  });

  it.each([
    ["a malformed number", `barkod:${BARCODE};tckn:12345678901;`, SIMULATOR_TEXTS.invalidNumber],
    ["an unknown barcode", `barkod:TESTGSB-9999-YOK;tckn:${HOLDER};`, NEGATIVE_ANSWERS.unknownBarcode],
    ["another person's number", `barkod:${BARCODE};tckn:${SOMEONE_ELSE};`, NEGATIVE_ANSWERS.notHolder],
    ["an unrecognised barcode", `barkod:SIMODD-0001;tckn:${HOLDER};`, SIMULATOR_TEXTS.mobileUnrecognised],
  ])("refuses %s with return false and the message", async (_what, qr, message) => {
    const answer = await ask(qr);
    expect(answer).toMatchObject({ kuyrukMu: 0, return: false, login: 0, data: null, messageArr: [message] });
    expect(JSON.stringify(answer)).not.toContain(HOLDER);
  });

  it("puts a busy caller in the queue", async () => {
    expect(await ask(`barkod:SIMBUSY-0001;tckn:${HOLDER};`)).toMatchObject({ kuyrukMu: 1, return: false });
  });
});

describe("the local server's count of lookups", () => {
  let counted: EdevletSimulator;
  beforeAll(async () => {
    counted = await startEdevletSimulator(handler, 0);
  });
  afterAll(async () => {
    await counted.stop();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const browser = () => client(() => counted.url);

  it("counts a form session from its first page to its final answer, across a fresh session it was sent to", async () => {
    const found = browser();
    const refused = browser();
    const start = await found.send(EDEVLET_FORM.start);
    await refused.send(EDEVLET_FORM.start);
    expect(counted.stats()).toEqual({ lookups: 2, inFlight: 2, maxInFlight: 2 });
    // Out of order: the session starts afresh, and is still the same lookup.
    const skipped = await refused.send(FORM_PAGES.consent);
    const landing = await refused.send(skipped.location ?? "");
    const second = await refused.post(EDEVLET_FORM.barcode, {
      token: tokenOf(landing.text),
      sorgulananBarkod: "TESTGSB-9999-YOK",
    });
    expect(counted.stats()).toEqual({ lookups: 2, inFlight: 2, maxInFlight: 2 });
    // The negative text ends it.
    await refused.send(second.location ?? "");
    expect(counted.stats()).toEqual({ lookups: 2, inFlight: 1, maxInFlight: 2 });

    let token = tokenOf(start.text);
    for (const [target, fields] of [
      [EDEVLET_FORM.barcode, { sorgulananBarkod: BARCODE }],
      [EDEVLET_FORM.identity, { ikinciAlan: HOLDER }],
      [EDEVLET_FORM.consent, { chkOnay: "1" }],
    ] as const) {
      const posted = await found.post(target, { token, ...fields });
      token = tokenOf((await found.send(posted.location ?? "")).text);
    }
    expect(counted.stats()).toMatchObject({ inFlight: 1 });
    expect((await found.send(EDEVLET_FORM.document)).type).toBe("application/pdf");
    expect(counted.stats()).toEqual({ lookups: 2, inFlight: 0, maxInFlight: 2 });
  });

  it("lets a form session nobody continues lapse after 20 s idle", async () => {
    await browser().send(EDEVLET_FORM.start);
    expect(counted.stats().inFlight).toBe(1);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + SESSION_IDLE_MS + 1_000);
    expect(counted.stats().inFlight).toBe(0);
  });

  it("counts a mobile request while it is answered, and stops holding a slow one when its client goes away", async () => {
    const before = counted.stats();
    const slow = [1, 2, 3].map(() =>
      fetch(`${counted.url}/api.php?p=belge-dogrulama&qr=barkod:SIMSLOW-0001;tckn:${HOLDER};`, {
        signal: AbortSignal.timeout(500),
      }).catch(() => "gone"),
    );
    await vi.waitFor(() => expect(counted.stats().inFlight).toBe(3), { timeout: 2_000 });
    expect(await Promise.all(slow)).toEqual(["gone", "gone", "gone"]);
    await vi.waitFor(() => expect(counted.stats().inFlight).toBe(0), { timeout: 2_000 });
    expect(counted.stats()).toEqual({ lookups: before.lookups + 3, inFlight: 0, maxInFlight: 3 });
  });
});

describe("the simulator's engine", () => {
  const holding = async (barcode: string): Promise<SimulatedHolding | undefined> =>
    barcode === BARCODE
      ? { behaviour: undefined, document: { bytes: new TextEncoder().encode("%PDF-1.7"), holder: HOLDER } }
      : undefined;
  const request = (target: string, cookies: string[] = [], fields?: Record<string, string>): SimulatorRequest => ({
    method: fields ? "POST" : "GET",
    target,
    headers: fields ? { "content-type": "application/x-www-form-urlencoded" } : {},
    cookies,
    body: fields ? new URLSearchParams(fields).toString() : "",
  });
  const pairs = (cookies: string[]) => cookies.map((cookie) => cookie.split(";")[0] ?? "");

  it("lets a session lapse ten minutes after its last page", async () => {
    let now = Date.parse("2026-09-01T10:00:00Z");
    const answer = edevletSimulator({
      holding,
      key: async () => "k".repeat(32),
      log: { error: () => undefined },
      now: () => now,
    });
    const start = await answer(request(EDEVLET_FORM.start));
    const token = tokenOf(String(start.body));
    now += SESSION_LIFETIME_MS - 1;
    const inTime = await answer(
      request(EDEVLET_FORM.barcode, pairs(start.cookies), { token, sorgulananBarkod: BARCODE }),
    );
    expect(inTime.headers.location).toBe(FORM_PAGES.identity);
    const page = await answer(request(FORM_PAGES.identity, pairs(inTime.cookies)));
    now += SESSION_LIFETIME_MS + 1;
    const late = await answer(
      request(EDEVLET_FORM.identity, pairs(page.cookies), { token: tokenOf(String(page.body)), ikinciAlan: HOLDER }),
    );
    expect([late.status, late.headers.location]).toEqual([302, EDEVLET_FORM.start]);
  });

  it("refuses a session signed with another key", async () => {
    const signer = (key: string) =>
      edevletSimulator({ holding, key: async () => key, log: { error: () => undefined } });
    const start = await signer("a".repeat(32))(request(EDEVLET_FORM.start));
    const elsewhere = await signer("b".repeat(32))(
      request(EDEVLET_FORM.barcode, pairs(start.cookies), {
        token: tokenOf(String(start.body)),
        sorgulananBarkod: BARCODE,
      }),
    );
    expect(elsewhere.headers.location).toBe(EDEVLET_FORM.start);
  });

  it("waits its latency before each answer", async () => {
    const answer = edevletSimulator({
      holding,
      key: async () => "k".repeat(32),
      log: { error: () => undefined },
      latencyMs: 150,
    });
    const started = Date.now();
    await answer(request(EDEVLET_FORM.start));
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
  });

  it("answers a failure to read what it holds with a 500 and a log line that names no number", async () => {
    const logged: unknown[] = [];
    const answer = edevletSimulator({
      holding: async () => {
        throw new Error("the folder is gone");
      },
      key: async () => "k".repeat(32),
      log: { error: (message, attributes) => logged.push({ message, ...attributes }) },
    });
    const reply = await answer(request(`/api.php?p=belge-dogrulama&qr=barkod:${BARCODE};tckn:${HOLDER};`));
    expect(reply.status).toBe(500);
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged, (_key, value) => (value instanceof Error ? value.message : value))).not.toContain(
      HOLDER,
    );
  });
});
