/**
 * The console's queue and its audit screen in headless chromium, in Turkish and English, on one
 * clock (a browser in Istanbul with an en-US locale). The queue says how many wait, names each
 * app and narrows by document type and reason; an admin reads the audit trail a reviewer's claim
 * and decision left, by verification and by actor, with the filter in the address; a reviewer is
 * offered no audit link and is told, at `#/audit`, that only admins read it. Every screen passes
 * axe-core at desktop width and a phone's, in both languages.
 */

import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { DOCUMENT_REGISTRY } from "#shared/domain/document-registry";
import { DOCUMENT_TYPE_CODES } from "#shared/domain/document-types";
import { REVIEW_REASONS } from "#shared/domain/reasons";
import type { VerificationResource } from "#shared/domain/responses/verification";
import { REVIEW_REASONS as CONSOLE_REASONS } from "../../web/backoffice/order.ts";
import { DOCUMENT_TYPES as CONSOLE_TYPES } from "../../web/backoffice/wire.ts";
import type { StaffUser } from "../support/api.ts";
import { expectAccessible } from "../support/axe.ts";
import { pageClock, TIME_ZONE, useChromium } from "../support/chromium.ts";
import { processedDocument } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

// No issuer: a readable PDF waits in review as `issuer_unavailable`, a photo as `original_pdf_not_provided`.
const fx = useApiFixture({ pipeline: true, issuer: false });

/** A reviewer's call to the backoffice API, as the console makes it. */
function asStaff(user: StaffUser, route: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(`${fx.api.backofficeUrl}/backoffice/v1/${route}`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${user.accessToken}`,
      Accept: "application/json",
      ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
      ...init.headers,
    },
    body: init.body === undefined ? null : JSON.stringify(init.body),
  });
}

let reviewer: StaffUser;
let admin: StaffUser;
let appName: string;
/** Waiting: a photo of a YÖK certificate, a GSB certificate, a YÖK certificate. */
let photo: VerificationResource;
let dorm: VerificationResource;
let student: VerificationResource;
/** Claimed and rejected by the reviewer before the tests, through the API. */
let decided: VerificationResource;
let decisionRequestId: string;
let consoleUrl: string;

beforeAll(async () => {
  [reviewer, admin] = await Promise.all([fx.api.staffUser(["reviewers"]), fx.api.staffUser(["admins"])]);
  appName = (await fx.api.apps.getApp(fx.app.app_id))?.name ?? "";
  decided = await processedDocument(fx.customer, "yok-active.pdf", "YOK_STUDENT", {
    status: "in_review",
    reason_code: "issuer_unavailable",
  });
  photo = await processedDocument(fx.customer, "yok-photo.png", "YOK_STUDENT", {
    status: "in_review",
    reason_code: "original_pdf_not_provided",
  });
  dorm = await processedDocument(fx.customer, "gsb-accommodated.pdf", "GSB_KYK_DORM", {
    status: "in_review",
    reason_code: "issuer_unavailable",
  });
  student = await processedDocument(fx.customer, "yok-active.pdf", "YOK_STUDENT", {
    status: "in_review",
    reason_code: "issuer_unavailable",
  });

  expect((await asStaff(reviewer, `reviews/${decided.verification_id}/claim`)).status).toBe(200);
  const decision = await asStaff(reviewer, `reviews/${decided.verification_id}/decision`, {
    body: { result: "rejected", reason_code: "not_genuine" },
    headers: { "If-Match": `"${decided.sequence}"` },
  });
  expect(decision.status, await decision.clone().text()).toBe(200);
  decisionRequestId = decision.headers.get("request-id") ?? "";
  consoleUrl = `${fx.api.backofficeUrl}/backoffice/`;
}, 90_000);

describe("the queue's filter codes", () => {
  it("are the codes the API takes, every one", () => {
    expect([...CONSOLE_TYPES].sort()).toEqual([...DOCUMENT_TYPE_CODES].sort());
    expect([...CONSOLE_REASONS].sort()).toEqual([...REVIEW_REASONS].sort());
  });
});

describe("the queue and the audit trail in chromium", () => {
  const chromium = useChromium({ locale: "en-US", timezoneId: TIME_ZONE });

  /** A new tab on the console at `address`, collecting script errors and policy violations. */
  async function openConsole(address = ""): Promise<{ page: Page; problems: string[] }> {
    const page = await chromium.browser().newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    expect((await page.goto(`${consoleUrl}${address}`))?.status()).toBe(200);
    await page.locator("#sign-in-title").waitFor();
    return { page, problems };
  }

  /** Signs in by the form's fields, whatever its language. */
  async function signIn(page: Page, user: StaffUser): Promise<void> {
    await page.locator("form.sign-in input[name=username]").fill(user.username);
    await page.locator("form.sign-in input[name=password]").fill(user.password);
    await page.locator("form.sign-in button[type=submit]").click();
    await page.locator("#account:not([hidden])").waitFor();
  }

  async function inLanguage(page: Page, language: "tr" | "en"): Promise<void> {
    await page.locator("#language").selectOption(language);
    await page.locator(`html[lang=${language}]`).waitFor();
  }

  /** Each language in turn: the screen passes axe-core at desktop width and at 390 px. */
  async function accessibleInBoth(page: Page, screen: string, ready: () => Promise<void>): Promise<void> {
    for (const language of ["tr", "en"] as const) {
      await inLanguage(page, language);
      await ready();
      await expectAccessible(page, `${screen} (${language})`);
    }
  }

  const rows = (page: Page, table: string) => page.locator(`table.${table} tbody tr`);
  const rowTexts = (page: Page, table: string) => rows(page, table).allInnerTexts();
  const settled = (page: Page, table: string) => page.locator(`table.${table}[aria-busy=false]`).waitFor();

  it("says how many wait, names each app, and narrows by type and reason, in both languages", async () => {
    const { page, problems } = await openConsole();
    await signIn(page, reviewer);
    await settled(page, "queue");
    const total = page.locator("#queue-total");
    await expect.poll(() => total.innerText()).toBe("3 doğrulama bekliyor");
    expect(await rowTexts(page, "queue")).toHaveLength(3);
    for (const text of await rowTexts(page, "queue")) {
      expect(text).toContain(appName);
      expect(text).not.toMatch(/YOK_STUDENT|GSB_KYK_DORM|issuer_unavailable|original_pdf_not_provided/);
    }
    // Every cell names its column, so a phone shows each row as a card.
    expect(await page.locator("table.queue tbody td[data-label]").count()).toBe(3 * 7);
    // Every type of the registry, by its Turkish name, in the registry's order.
    expect(await page.locator("#queue-type option").allInnerTexts()).toEqual([
      "Tüm türler",
      ...DOCUMENT_REGISTRY.map((entry) => entry.labels.tr),
    ]);
    expect(await page.locator("#queue-type option").allInnerTexts()).toContain("Adli sicil kaydı belgesi");
    expect(await page.locator("#queue-reason option").allInnerTexts()).toEqual([
      "Tüm nedenler",
      "Kuruma ulaşılamadı",
      "Alanlar eksik",
      "Özgün PDF yerine fotoğraf",
      "İnceleme istendi",
    ]);

    await page.getByLabel("Belge türü").selectOption("GSB_KYK_DORM");
    await expect.poll(() => total.innerText()).toBe("1 doğrulama bekliyor");
    await expect.poll(() => rowTexts(page, "queue")).toHaveLength(1);
    expect((await rowTexts(page, "queue"))[0]).toContain(dorm.verification_id);
    expect((await rowTexts(page, "queue"))[0]).toContain("GSB KYK yurt belgesi");

    // In English the filter stays, its words follow.
    await inLanguage(page, "en");
    await expect.poll(() => total.innerText()).toBe("1 verification waiting");
    expect(await page.getByLabel("Document type").inputValue()).toBe("GSB_KYK_DORM");
    await page.getByLabel("Document type").selectOption("");
    await page.getByLabel("Reason for review").selectOption("issuer_unavailable");
    await expect.poll(() => total.innerText()).toBe("2 verifications waiting");
    await expect.poll(async () => (await rowTexts(page, "queue")).join("\n")).toContain(student.verification_id);
    const waiting = (await rowTexts(page, "queue")).join("\n");
    expect(waiting).toContain(dorm.verification_id);
    expect(waiting).not.toContain(photo.verification_id);
    expect(waiting).toMatch(/Issuer unavailable/);
    await page.getByLabel("Document type").selectOption("YOK_STUDENT");
    await expect.poll(() => total.innerText()).toBe("1 verification waiting");
    await expect.poll(() => rowTexts(page, "queue")).toEqual([expect.stringContaining(student.verification_id)]);

    await page.getByLabel("Reason for review").selectOption("");
    await expect.poll(() => total.innerText()).toBe("2 verifications waiting");
    await accessibleInBoth(page, "queue", () => settled(page, "queue"));
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  /** An admin opens the audit screen from its link: every record, newest first, each action in words. */
  async function openAuditScreen(page: Page): Promise<void> {
    const link = page.getByRole("link", { name: "Denetim kaydı", exact: true });
    await link.waitFor();
    await link.click();
    await page.getByRole("heading", { name: "Denetim kaydı" }).waitFor();
    await settled(page, "audit");
    expect(await page.locator("#audit-scope").innerText()).toBe("Tüm kayıtlar, en yenisi önce.");
    const everything = (await rowTexts(page, "audit")).join("\n");
    expect(everything).toContain("İnceleme karara bağlandı");
    expect(everything).toContain("İnceleme üstlenildi");
    expect(everything).not.toMatch(/review\.(claimed|decided)/);
  }

  /** One verification's records, from the form, with the address saying so. */
  async function auditOfVerification(page: Page): Promise<void> {
    // One verification's records, from the form: the address says so.
    await page.getByLabel("Doğrulama kimliği").fill(decided.verification_id);
    await page.getByRole("button", { name: "Kayıtları göster" }).click();
    await expect
      .poll(() => page.evaluate<string>("location.hash"))
      .toBe(`#/audit?verification=${decided.verification_id}`);
    await expect
      .poll(() => page.locator("#audit-scope").innerText())
      .toBe(`${decided.verification_id} doğrulamasının kayıtları, en yenisi önce.`);
    await settled(page, "audit");
    await expect.poll(() => rows(page, "audit").count()).toBe(2);
    const [decision = "", claim = ""] = await rowTexts(page, "audit");
    expect(decision).toMatch(/İnceleme karara bağlandı: Reddedildi \(Gerçek değil\)/);
    expect(claim).toMatch(/İnceleme üstlenildi/);
    for (const row of [decision, claim]) {
      expect(row).toContain(reviewer.username);
      expect(row).toContain("Personel");
      expect(row).toContain(decided.verification_id);
      expect(row).toContain(fx.app.app_id);
      expect(row).toContain("127.0.0.1");
    }
    expect(decision).toContain(decisionRequestId);
    // Times in the browser's zone, 24-hour.
    for (const time of await page.locator("table.audit time").all()) {
      expect(await time.innerText()).toBe(await pageClock(page, (await time.getAttribute("datetime")) ?? ""));
    }
    expect(
      await page.getByRole("link", { name: decided.verification_id, exact: true }).first().getAttribute("href"),
    ).toBe(`#/reviews/${decided.verification_id}`);
    await accessibleInBoth(page, "audit trail of a verification", () => settled(page, "audit"));
    expect(await page.getByRole("columnheader").allInnerTexts()).toEqual([
      "Time",
      "Actor",
      "Action",
      "Verification",
      "App",
      "Request id",
      "Source IP",
    ]);
    expect((await rowTexts(page, "audit"))[0]).toMatch(/Review decided/);
    expect((await rowTexts(page, "audit"))[1]).toMatch(/Review claimed/);
  }

  /** The records of the actor whose name is followed. */
  async function auditOfActor(page: Page): Promise<void> {
    // The actor's name filters by them.
    await page.getByRole("link", { name: reviewer.username, exact: true }).first().click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe(`#/audit?actor=${reviewer.sub}`);
    await expect
      .poll(() => page.locator("#audit-scope").innerText())
      .toBe(`The records of ${reviewer.username}, newest first.`);
    await settled(page, "audit");
    const byActor = await rowTexts(page, "audit");
    expect(byActor.length).toBeGreaterThanOrEqual(2);
    for (const row of byActor) expect(row).toContain(reviewer.username);
    expect(byActor.join("\n")).not.toContain(admin.username);
    await accessibleInBoth(page, "audit trail of an actor", () => settled(page, "audit"));
  }

  /** The actor's records narrowed to one action, then to days. */
  async function auditNarrowed(page: Page): Promise<void> {
    // Narrowed to one action, then to days (the browser's): the actor stays the scope, the address says it all.
    await page.getByLabel("Action", { exact: true }).selectOption("review.decided");
    await page.getByRole("button", { name: "Show records" }).click();
    await expect
      .poll(() => page.evaluate<string>("location.hash"))
      .toBe(`#/audit?actor=${reviewer.sub}&action=review.decided`);
    await settled(page, "audit");
    const decisions = await rowTexts(page, "audit");
    expect(decisions.length).toBeGreaterThanOrEqual(1);
    for (const row of decisions) expect(row).toMatch(/Review decided: (Rejected|Verified)/);
    expect(decisions.join("\n")).toMatch(/Review decided: Rejected \(Not genuine\)/);
    const day = (after: number) =>
      page.evaluate<string>(
        `(() => { const d = new Date(); d.setDate(d.getDate() + ${after}); return [d.getFullYear(), String(d.getMonth() + 1).padStart(2, "0"), String(d.getDate()).padStart(2, "0")].join("-"); })()`,
      );
    const [today, tomorrow] = [await day(0), await day(1)];
    await page.getByLabel("From (day)").fill(tomorrow);
    await page.getByRole("button", { name: "Show records" }).click();
    await expect
      .poll(() => page.evaluate<string>("location.hash"))
      .toBe(`#/audit?actor=${reviewer.sub}&action=review.decided&from=${tomorrow}`);
    await settled(page, "audit");
    expect(await rows(page, "audit").count()).toBe(0);
    await page.getByLabel("From (day)").fill(today);
    await page.getByLabel("To (day, included)").fill(today);
    await page.getByRole("button", { name: "Show records" }).click();
    await expect
      .poll(() => page.evaluate<string>("location.hash"))
      .toBe(`#/audit?actor=${reviewer.sub}&action=review.decided&from=${today}&to=${today}`);
    await settled(page, "audit");
    expect(await rowTexts(page, "audit")).toEqual(decisions);
    await accessibleInBoth(page, "audit trail narrowed by action and days", () => settled(page, "audit"));
  }

  it("shows an admin the reviewer's claim and decision, by verification and by actor, with the filter in the address", async () => {
    const { page, problems } = await openConsole();
    await signIn(page, admin);
    await openAuditScreen(page);
    await auditOfVerification(page);
    await auditOfActor(page);
    await auditNarrowed(page);

    expect(await page.evaluate<boolean>("/\\b(AM|PM)\\b/.test(document.body.innerText)")).toBe(false);
    expect(await page.evaluate<string>("JSON.stringify(document.body.innerText.match(/\\d{4}-\\d{2}-\\d{2}T/))")).toBe(
      "null",
    );
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);

  it("opens the trail the address names, once signed in", async () => {
    const { page, problems } = await openConsole(`#/audit?verification=${decided.verification_id}`);
    await signIn(page, admin);
    await page.locator("#audit-title").waitFor();
    await settled(page, "audit");
    await expect.poll(() => rows(page, "audit").count()).toBe(2);
    expect((await rowTexts(page, "audit")).join("\n")).not.toContain(photo.verification_id);
    await page.getByRole("link", { name: "Tüm kayıtları göster" }).click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/audit");
    await expect.poll(() => page.locator("#audit-scope").innerText()).toBe("Tüm kayıtlar, en yenisi önce.");

    // An item links an admin to its own trail.
    await page.evaluate(`location.hash = '#/reviews/${decided.verification_id}'`);
    await page.getByRole("link", { name: "Bu doğrulamanın denetim kaydı" }).click();
    await expect
      .poll(() => page.evaluate<string>("location.hash"))
      .toBe(`#/audit?verification=${decided.verification_id}`);
    await settled(page, "audit");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("offers a reviewer no audit link, and tells them at #/audit that only admins read it", async () => {
    const { page, problems } = await openConsole();
    await signIn(page, reviewer);
    await settled(page, "queue");
    expect(await page.locator("#audit-link").isVisible()).toBe(false);
    await page.evaluate(`location.hash = '#/reviews/${decided.verification_id}'`);
    await page.locator("#item-title").waitFor();
    expect(await page.getByRole("link", { name: "Bu doğrulamanın denetim kaydı" }).count()).toBe(0);
    await page.evaluate("location.hash = '#/audit'");
    const refusal = page.locator("#view [role=alert]");
    await expect
      .poll(() => refusal.innerText())
      .toBe("Denetim kaydını yalnızca yöneticiler okuyabilir: hesabınız yöneticiler grubunda değil.");
    expect(await page.locator("table.audit").count()).toBe(0);
    await accessibleInBoth(page, "audit trail refused", () => refusal.waitFor());
    await expect
      .poll(() => refusal.innerText())
      .toBe("Only admins may read the audit trail: your account is not in the admins group.");
    expect(await page.locator("#audit-link").isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
