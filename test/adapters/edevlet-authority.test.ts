/**
 * Both e-Devlet adapters, the web form and the mobile endpoint, against the simulator's real
 * handler served as the local runtime serves it: every answer either way in gives, what a
 * client that drops its cookies or replays an old token gets (raw fetches), a certificate added
 * while the simulator runs, and the T.C. number in no answer of the adapters.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { edevletFormAuthority } from "#shared/adapters/edevlet/form";
import { edevletMobileAuthority } from "#shared/adapters/edevlet/mobile";
import type { SettingName } from "#shared/declarations/settings";
import { EDEVLET_FORM, mobileQr } from "#shared/domain/edevlet";
import type { Authority, IssuerAnswer, IssuerLookup } from "#shared/ports/authority";
import type { SimulatedBehaviour } from "#shared/ports/issuer-catalogue";
import { issuerAuthority } from "#shared/wiring/authority";
import type { FunctionConfig } from "#shared/wiring/config";
import { type EdevletSimulator, type SimulatorHandler, startEdevletSimulator } from "../../local/edevlet.ts";
import { CATALOGUE } from "../../scripts/test-documents/catalogue.ts";
import {
  certificatePdf,
  syntheticIdentityNumber,
  type YokStudentSpec,
} from "../../scripts/test-documents/certificate.ts";

const PUBLISHED = path.resolve(__dirname, "../../docs/test-documents/issuer");
const ACTIVE_FILE = path.join(PUBLISHED, "YOK_STUDENT/TESTYOK-0001-AKTIF.pdf");
const HOLDER = syntheticIdentityNumber(1);
const SOMEONE_ELSE = syntheticIdentityNumber(2);
const ACTIVE: IssuerLookup = { documentType: "YOK_STUDENT", barcode: "TESTYOK-0001-AKTIF", identityNumber: HOLDER };

/** The published active student's spec, to print more certificates like it under other barcodes. */
function activeSpec(): YokStudentSpec {
  const entry = CATALOGUE.find((candidate) => candidate.file === "yok-active.pdf");
  if (entry?.upload.kind !== "pdf" || entry.upload.spec.documentType !== "YOK_STUDENT") {
    throw new Error("The catalogue has no yok-active.pdf");
  }
  return entry.upload.spec;
}

let folder = "";
let simulator: EdevletSimulator;
/** Every answer the adapters gave in this file, to look for the T.C. number in. */
const answers: IssuerAnswer[] = [];

/** A certificate of the active student printing `barcode`, written as `<folder>/<sub>/<barcode>.pdf`. */
async function certificate(barcode: string, sub = "YOK_STUDENT"): Promise<Uint8Array> {
  const bytes = await certificatePdf({ ...activeSpec(), barcode });
  writeFileSync(path.join(folder, sub, `${barcode}.pdf`), bytes);
  return bytes;
}
const marker = (name: string) => writeFileSync(path.join(folder, name), "");

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "edevlet-"));
  for (const sub of ["YOK_STUDENT", "deep/er/still"]) mkdirSync(path.join(folder, sub), { recursive: true });
  await Promise.all([
    certificate("SIMYOK-0001-NOTPDF"),
    certificate("SIMYOK-0002-LOST", "deep/er/still"),
    certificate("SIMYOK-0003-STALE"),
  ]);
  marker("SIMYOK-0001-NOTPDF.not-pdf");
  marker("deep/er/SIMYOK-0002-LOST.session-lost");
  marker("SIMYOK-0003-STALE.token-stale");
  marker("SIMBUSY-0001.busy");
  marker("SIMERROR-0001.error");
  marker("SIMSLOW-0001.slow");
  marker("SIMODD-0001.unrecognised");
  for (const [barcode, behaviour] of Object.entries(DISAGREEING)) {
    await certificate(barcode);
    marker(`${barcode}.${behaviour.name}`);
  }
  Object.assign(process.env, {
    SIMULATOR_DOCUMENTS: [PUBLISHED, folder].join(path.delimiter),
    SIMULATOR_KEY: "edevlet-authority-test-key-of-32-chars-or-more",
  });
  const { handler } = (await import("../../functions/edevlet-simulator.ts")) as { handler: SimulatorHandler };
  simulator = await startEdevletSimulator(handler, 0);
});
afterAll(async () => {
  await simulator?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/**
 * The behaviours where e-Devlet might disagree with the adapter's reading of it, under a barcode
 * each (its certificate held), and what each way in must answer for the holder.
 */
const DISAGREEING: Record<
  string,
  { name: SimulatedBehaviour; form: IssuerAnswer["kind"] | "unrecognised"; mobile: IssuerAnswer["kind"] }
> = {
  "SIMNEW-0001-BUTTON": { name: "button", form: "found", mobile: "found" },
  "SIMNEW-0002-WIN1254": { name: "windows-1254", form: "found", mobile: "found" },
  "SIMNEW-0003-NEGDOC": { name: "negative-at-document", form: "unrecognised", mobile: "found" },
  "SIMNEW-0004-HIDDEN": { name: "hidden-negative", form: "found", mobile: "found" },
  "SIMNEW-0005-NEARMISS": { name: "near-miss", form: "unrecognised", mobile: "found" },
  "SIMNEW-0006-MOVED": { name: "redirect-307", form: "found", mobile: "found" },
  "SIMNEW-0007-CHURN": { name: "cookie-churn", form: "found", mobile: "found" },
  "SIMNEW-0008-BROWSER": { name: "browser-only", form: "found", mobile: "found" },
  "SIMNEW-0009-RENDER": { name: "rerendered", form: "found", mobile: "found" },
};

const ADAPTERS = {
  form: (budgetMs?: number) => edevletFormAuthority({ url: simulator.url, ...(budgetMs && { budgetMs }) }),
  mobile: (budgetMs?: number) => edevletMobileAuthority({ url: simulator.url, ...(budgetMs && { budgetMs }) }),
} satisfies Record<string, (budgetMs?: number) => Authority>;
type Way = keyof typeof ADAPTERS;

async function ask(way: Way, request: Partial<IssuerLookup> = {}, budgetMs?: number): Promise<IssuerAnswer> {
  const answer = await ADAPTERS[way](budgetMs).lookup({ ...ACTIVE, ...request });
  answers.push(answer);
  return answer;
}

describe.each(["form", "mobile"] as const)("the e-Devlet %s adapter against the simulator", (way) => {
  it("finds the published certificate: the bytes are the file's", async () => {
    const answer = await ask(way);
    expect(answer.kind).toBe("found");
    expect(answer.kind === "found" && Buffer.from(answer.document).equals(readFileSync(ACTIVE_FILE))).toBe(true);
  });

  it("reads an unknown barcode and another person's number as not found on the form, as unrecognised on the mobile endpoint (it documents no negative)", async () => {
    const negative = way === "form" ? { kind: "not_found" } : { kind: "unavailable", cause: "unrecognised" };
    expect(await ask(way, { barcode: "SIMYOK-9999-NOBODY" })).toEqual(negative);
    expect(await ask(way, { identityNumber: SOMEONE_ELSE })).toEqual(negative);
  });

  it("reads a busy e-Devlet as unavailable: a 429 on the form, the queue on the mobile endpoint", async () => {
    expect(await ask(way, { barcode: "SIMBUSY-0001" })).toEqual({
      kind: "unavailable",
      cause: way === "form" ? "http_error" : "busy",
    });
  });

  it("reads a 500 as an http error", async () => {
    expect(await ask(way, { barcode: "SIMERROR-0001" })).toEqual({ kind: "unavailable", cause: "http_error" });
  });

  it("gives up when the budget runs out while the simulator holds its answer", async () => {
    const started = Date.now();
    expect(await ask(way, { barcode: "SIMSLOW-0001" }, 400)).toEqual({ kind: "unavailable", cause: "timeout" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("reads a page or message never seen as unrecognised, never as not found", async () => {
    expect(await ask(way, { barcode: "SIMODD-0001" })).toEqual({ kind: "unavailable", cause: "unrecognised" });
  });

  it("reads something other than a PDF where the document should be as unrecognised", async () => {
    expect(await ask(way, { barcode: "SIMYOK-0001-NOTPDF" })).toEqual({ kind: "unavailable", cause: "unrecognised" });
  });

  it("reads a lost session and a stale token as unrecognised on the form (the mobile endpoint has neither)", async () => {
    for (const barcode of ["SIMYOK-0002-LOST", "SIMYOK-0003-STALE"]) {
      const answer = await ask(way, { barcode });
      expect(answer.kind === "unavailable" ? answer.cause : answer.kind).toBe(
        way === "form" ? "unrecognised" : "found",
      );
    }
  });

  it.each(Object.entries(DISAGREEING))("reads %s as a browser would", async (barcode, behaviour) => {
    const answer = await ask(way, { barcode });
    expect(answer.kind === "unavailable" ? answer.cause : answer.kind).toBe(behaviour[way]);
  });

  it("reads the other holder's number on a windows-1254 session as not found on the form", async () => {
    const answer = await ask(way, { barcode: "SIMNEW-0002-WIN1254", identityNumber: SOMEONE_ELSE });
    expect(answer.kind === "unavailable" ? answer.cause : answer.kind).toBe(
      way === "form" ? "not_found" : "unrecognised",
    );
  });

  it("takes a copy re-rendered with other bytes at every lookup as found each time: other bytes, a PDF both", async () => {
    const [first, second] = [
      await ask(way, { barcode: "SIMNEW-0009-RENDER" }),
      await ask(way, { barcode: "SIMNEW-0009-RENDER" }),
    ];
    if (first?.kind !== "found" || second?.kind !== "found") throw new Error("not found");
    expect(Buffer.from(first.document).equals(Buffer.from(second.document))).toBe(false);
  });

  it("reads no connection as unreachable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const authority = way === "form" ? edevletFormAuthority({ url }) : edevletMobileAuthority({ url });
    const answer = await authority.lookup(ACTIVE);
    answers.push(answer);
    expect(answer).toEqual({ kind: "unavailable", cause: "unreachable" });
  });

  it("serves a certificate added while the simulator runs at the next lookup", async () => {
    const barcode = `SIMYOK-0100-${way.toUpperCase()}`;
    expect((await ask(way, { barcode })).kind).not.toBe("found");
    const bytes = await certificate(barcode);
    const answer = await ask(way, { barcode });
    expect(answer.kind === "found" && Buffer.from(answer.document).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe("the adapters' own limits, against a server scripted to break them", () => {
  let scripted: Server;
  let url = "";
  let script: (path: string) => { status: number; headers?: Record<string, string>; body?: string } = () => ({
    status: 404,
  });
  beforeAll(async () => {
    scripted = createServer((request, response) => {
      const { status, headers, body } = script(request.url ?? "/");
      response.writeHead(status, headers).end(body);
    });
    await new Promise<void>((resolve) => scripted.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(scripted.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    scripted.closeAllConnections();
    scripted.close();
  });

  const lookup = async (authority: Authority) => {
    const answer = await authority.lookup(ACTIVE);
    answers.push(answer);
    return answer;
  };
  const unrecognised = { kind: "unavailable", cause: "unrecognised" };

  it("follows no redirect to another origin", async () => {
    script = () => ({ status: 302, headers: { location: "https://elsewhere.example/belge-dogrulama" } });
    expect(await lookup(edevletFormAuthority({ url }))).toEqual(unrecognised);
    expect(await lookup(edevletMobileAuthority({ url }))).toEqual(unrecognised);
  });

  it("stops after a few redirects within the origin", async () => {
    let followed = 0;
    script = () => {
      followed += 1;
      return { status: 302, headers: { location: `/belge-dogrulama?tur=${followed}` } };
    };
    expect(await lookup(edevletFormAuthority({ url }))).toEqual(unrecognised);
    expect(followed).toBeLessThanOrEqual(10);
  });

  it("reads a page over 256 KiB no further, and a form without its token as unrecognised", async () => {
    script = () => ({ status: 200, headers: { "content-type": "text/html" }, body: `<p>${"x".repeat(270_000)}</p>` });
    expect(await lookup(edevletFormAuthority({ url }))).toEqual(unrecognised);
    script = () => ({ status: 200, body: `<form><input name="${EDEVLET_FORM.fields.barcode}"></form>` });
    expect(await lookup(edevletFormAuthority({ url }))).toEqual(unrecognised);
  });

  it("reads the token whatever its attributes' order, or from data-token, and sends it with the button", async () => {
    const posted: string[] = [];
    const bodies: string[] = [];
    scripted.removeAllListeners("request");
    scripted.on("request", (request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on("end", () => {
        if (request.method === "POST") {
          posted.push(request.url ?? "");
          bodies.push(body);
          response.writeHead(302, { location: "/belge-dogrulama?islem=dogrulama" }).end();
          return;
        }
        if (request.url === EDEVLET_FORM.start) {
          response
            .writeHead(200)
            .end(`<form><input value="{FIRST}" name="token" type="hidden"><input name="sorgulananBarkod"></form>`);
          return;
        }
        response.writeHead(200).end(`<form data-token="{SECOND}"><input name="ikinciAlan"></form>`);
      });
    });
    // The third page has no consent box: unrecognised, after both tokens were read and sent.
    expect(await lookup(edevletFormAuthority({ url }))).toEqual(unrecognised);
    expect(posted).toEqual([EDEVLET_FORM.barcode, EDEVLET_FORM.identity]);
    expect(bodies.map((body) => Object.fromEntries(new URLSearchParams(body)))).toEqual([
      { token: "{FIRST}", sorgulananBarkod: ACTIVE.barcode, btn: "Devam Et" },
      { token: "{SECOND}", ikinciAlan: HOLDER, btn: "Devam Et" },
    ]);
  });

  it("asks the mobile endpoint with the qr pairs readable, and reads JSON it cannot parse as unrecognised", async () => {
    const asked: string[] = [];
    scripted.removeAllListeners("request");
    scripted.on("request", (request, response) => {
      asked.push(request.url ?? "");
      response.writeHead(200, { "content-type": "application/json" }).end("{not json");
    });
    expect(await lookup(edevletMobileAuthority({ url }))).toEqual(unrecognised);
    expect(asked).toEqual([`/api.php?p=belge-dogrulama&qr=${mobileQr(ACTIVE.barcode, HOLDER)}`]);
  });
});

/** A client of the simulator's form written by hand: it keeps cookies only when told to. */
function rawClient() {
  const jar = new Map<string, string>();
  const send = async (target: string, init: RequestInit = {}, cookies: "send" | "drop" = "send") => {
    const headers = new Headers(init.headers);
    if (cookies === "send" && jar.size > 0) {
      headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    const response = await fetch(new URL(target, simulator.url), { ...init, headers, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const equals = pair.indexOf("=");
      jar.set(pair.slice(0, equals), pair.slice(equals + 1));
    }
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, location: response.headers.get("location"), body, text: body.toString("utf8") };
  };
  const tokenOf = (html: string) => /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const post = (target: string, fields: Record<string, string>, cookies: "send" | "drop" = "send") =>
    send(
      target,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...fields, btn: "Devam Et" }).toString(),
      },
      cookies,
    );
  return { jar, send, post, tokenOf };
}

describe("a client that does not keep the session", () => {
  it("gets no document when it sends no cookies: every step lands on the start page", async () => {
    const client = rawClient();
    const first = client.tokenOf((await client.send(EDEVLET_FORM.start, {}, "drop")).text);
    const second = await client.post(EDEVLET_FORM.barcode, { token: first, sorgulananBarkod: ACTIVE.barcode }, "drop");
    expect([second.status, second.location]).toEqual([302, EDEVLET_FORM.start]);
    const document = await client.send(EDEVLET_FORM.document, {}, "drop");
    expect(document.status).toBe(302);
    expect(document.body.includes("%PDF-")).toBe(false);
  });

  it("gets no document when it drops one of the two cookies halfway", async () => {
    for (const dropped of [EDEVLET_FORM.sessionCookie, "w3p"]) {
      const client = rawClient();
      const first = client.tokenOf((await client.send(EDEVLET_FORM.start)).text);
      const second = await client.post(EDEVLET_FORM.barcode, { token: first, sorgulananBarkod: ACTIVE.barcode });
      const identity = await client.send(second.location ?? "");
      client.jar.delete(dropped);
      const third = await client.post(EDEVLET_FORM.identity, {
        token: client.tokenOf(identity.text),
        ikinciAlan: HOLDER,
      });
      expect([third.status, third.location]).toEqual([302, EDEVLET_FORM.start]);
      expect((await client.send(EDEVLET_FORM.document)).body.includes("%PDF-")).toBe(false);
    }
  });

  it("gets no document when it replays an earlier page's token", async () => {
    const client = rawClient();
    const first = client.tokenOf((await client.send(EDEVLET_FORM.start)).text);
    const second = await client.post(EDEVLET_FORM.barcode, { token: first, sorgulananBarkod: ACTIVE.barcode });
    await client.send(second.location ?? "");
    const third = await client.post(EDEVLET_FORM.identity, { token: first, ikinciAlan: HOLDER });
    expect([third.status, third.location]).toEqual([302, EDEVLET_FORM.start]);
    const landing = await client.send(EDEVLET_FORM.start);
    expect(landing.text).toContain("işleminize baştan başlamanız gerekmektedir");
    expect(landing.text).not.toContain(`name="${EDEVLET_FORM.fields.identityNumber}"`);
    expect((await client.send(EDEVLET_FORM.document)).body.includes("%PDF-")).toBe(false);
  });

  it("gets the document when it keeps both cookies and sends each page's token: the control", async () => {
    const client = rawClient();
    let token = client.tokenOf((await client.send(EDEVLET_FORM.start)).text);
    const steps: [string, Record<string, string>][] = [
      [EDEVLET_FORM.barcode, { sorgulananBarkod: ACTIVE.barcode }],
      [EDEVLET_FORM.identity, { ikinciAlan: HOLDER }],
      [EDEVLET_FORM.consent, { chkOnay: "1" }],
    ];
    for (const [target, fields] of steps) {
      const posted = await client.post(target, { token, ...fields });
      expect(posted.status).toBe(302);
      token = client.tokenOf((await client.send(posted.location ?? "")).text);
    }
    const document = await client.send(EDEVLET_FORM.document);
    expect(document.body.equals(readFileSync(ACTIVE_FILE))).toBe(true);
  });
});

describe("the wiring: which adapter a function's settings pick", () => {
  const config = (values: Partial<Record<SettingName, string>>): FunctionConfig => ({
    name: "ask-issuer",
    declares: (key) => key in values,
    setting: (key) => {
      const value = values[key];
      if (value === undefined) throw new Error(`no ${key}`);
      return value;
    },
    optional: (key) => values[key],
    environment: () => "sandbox",
    destinations: () => "public",
  });

  it("picks the form by default and the mobile endpoint when asked, each at its own URL", async () => {
    const form = issuerAuthority(config({ ISSUER: "edevlet", EDEVLET_URL: simulator.url }));
    const mobile = issuerAuthority(
      config({ ISSUER: "edevlet", EDEVLET_PROTOCOL: "mobile", EDEVLET_MOBILE_URL: simulator.url }),
    );
    // A busy barcode tells them apart: the form meets a 429, the mobile endpoint its queue.
    expect(await form?.lookup({ ...ACTIVE, barcode: "SIMBUSY-0001" })).toEqual({
      kind: "unavailable",
      cause: "http_error",
    });
    expect(await mobile?.lookup({ ...ACTIVE, barcode: "SIMBUSY-0001" })).toEqual({
      kind: "unavailable",
      cause: "busy",
    });
  });

  it("asks no issuer for none, and refuses at cold start a URL that is neither https nor loopback", () => {
    expect(issuerAuthority(config({ ISSUER: "none" }))).toBeUndefined();
    expect(issuerAuthority(config({ ISSUER: "edevlet" }))).toBeDefined();
    expect(() => issuerAuthority(config({ ISSUER: "edevlet", EDEVLET_URL: "http://www.turkiye.gov.tr" }))).toThrow(
      /EDEVLET_URL must be an https URL/,
    );
    expect(() =>
      issuerAuthority(config({ ISSUER: "edevlet", EDEVLET_PROTOCOL: "mobile", EDEVLET_MOBILE_URL: "http://10.0.0.1" })),
    ).toThrow(/EDEVLET_MOBILE_URL/);
    expect(() => issuerAuthority(config({ ISSUER: "lookup" }))).toThrow(/AUTHORITY_URL/);
    expect(issuerAuthority(config({ ISSUER: "lookup", AUTHORITY_URL: "http://[::1]:9" }))).toBeDefined();
  });
});

describe("the T.C. identity number", () => {
  it("is in no answer either adapter gave in this file", () => {
    expect(answers.length).toBeGreaterThan(20);
    for (const answer of answers) {
      const text = answer.kind === "found" ? answer.kind : JSON.stringify(answer);
      expect(text).not.toContain(HOLDER);
      expect(text).not.toContain(SOMEONE_ELSE);
    }
  });
});
