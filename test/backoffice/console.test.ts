/**
 * The review console in a real browser: Debian's headless chromium driven by playwright-core,
 * against the local runtime, its identity endpoint and the uploads engine. A reviewer signs
 * in, works the queue with the mouse and with the keyboard alone, and decides; the customer
 * sees the decision and receives its signed webhook.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { AssociateSoftwareTokenCommand, VerifySoftwareTokenCommand } from "@aws-sdk/client-cognito-identity-provider";
import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { webhookEventSchema } from "#shared/domain/responses/events";
import type { claimResponseSchema, ReviewEntry, StaffVerification } from "#shared/domain/responses/review";
import type { VerificationResource } from "#shared/domain/responses/verification";
import { MAX_NOTE_LENGTH, REJECTION_CODES, type ReviewDecisionBody } from "#shared/domain/review";
import { problemSchema } from "#shared/http/problem-schema";
import { fillPage } from "#shared/http/web-assets";
import type { viewDocument } from "#shared/use-cases/review/document";
import { totpCode } from "../../local/identity/totp.ts";
import { REJECTION_CODES as CONSOLE_REJECTION_CODES } from "../../web/backoffice/order.ts";
import type { components } from "../../web/backoffice/schema.ts";
import type * as wire from "../../web/backoffice/wire.ts";
import { MAX_NOTE_LENGTH as CONSOLE_NOTE_LENGTH } from "../../web/backoffice/wire.ts";
import type { ProblemBody } from "../../web/common/problem.ts";
import type { StaffUser } from "../support/api.ts";
import { expectAccessible } from "../support/axe.ts";
import { useChromium } from "../support/chromium.ts";
import { expectVerification, processedDocument } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";
import type { Delivery } from "../support/receiver.ts";

// The published issuer: one certificate waits in review with both copies, the others without the
// issuer's (e-Devlet stays busy for them: retried for a short window here, then review).
const fx = useApiFixture({ pipeline: true, receiver: true, issuer: { settings: { ISSUER_RETRY_WINDOW_S: "2" } } });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The `verification.completed` delivery about `id`, once it arrives. */
async function completedDelivery(id: string): Promise<Delivery> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const delivery = fx.receiver.deliveries.find(
      (candidate) => candidate.body.includes(id) && candidate.body.includes('"verification.completed"'),
    );
    if (delivery) return delivery;
    if (Date.now() > deadline) throw new Error(`No verification.completed event about ${id} arrived`);
    await pause(25);
  }
}

let reviewer: StaffUser;
let otherReviewer: StaffUser;
/** Oldest first: both copies; then two with no issuer's copy. */
let waiting: VerificationResource[];
let consoleUrl: string;
let documentsOrigin: string;

beforeAll(async () => {
  [reviewer, otherReviewer] = await Promise.all([fx.api.staffUser(["reviewers"]), fx.api.staffUser(["reviewers"])]);
  waiting = [];
  for (const [file, reason] of [
    ["gsb-fields-incomplete.pdf", "fields_incomplete"],
    ["gsb-issuer-unavailable.pdf", "issuer_unavailable"],
    ["gsb-issuer-unavailable.pdf", "issuer_unavailable"],
  ] as const) {
    waiting.push(
      await processedDocument(fx.customer, file, "GSB_KYK_DORM", { status: "in_review", reason_code: reason }),
    );
    // The queue orders by the second each went to review: one apiece, so "oldest" is this order.
    await pause(1_100);
  }
  consoleUrl = `${fx.api.backofficeUrl}/backoffice/`;
  documentsOrigin = new URL(process.env.S3_ENDPOINT ?? "").origin;
}, 60_000);

describe("the console's wire types", () => {
  it("read and write what the API's schemas define", () => {
    expectTypeOf<ReviewEntry>().toExtend<wire.ReviewEntry>();
    expectTypeOf<StaffVerification>().toExtend<wire.StaffVerification>();
    expectTypeOf<z.output<typeof claimResponseSchema>>().toExtend<wire.ClaimResponse>();
    expectTypeOf<Awaited<ReturnType<typeof viewDocument>>>().toExtend<wire.DocumentLink>();
    expectTypeOf<wire.DecisionBody>().toExtend<ReviewDecisionBody>();
    expectTypeOf<wire.RejectionCode>().toEqualTypeOf<(typeof REJECTION_CODES)[number]>();
    expectTypeOf<(typeof CONSOLE_REJECTION_CODES)[number]>().toEqualTypeOf<wire.RejectionCode>();
    expectTypeOf<components["schemas"]["Problem"]>().toExtend<ProblemBody>();
    expect(CONSOLE_REJECTION_CODES).toEqual(REJECTION_CODES);
    expect(CONSOLE_NOTE_LENGTH).toBe(MAX_NOTE_LENGTH);
  });

  it("offer the rejection codes and the note's length openapi-backoffice.json gives, in its order", () => {
    const document = JSON.parse(readFileSync(path.resolve(__dirname, "../../openapi-backoffice.json"), "utf8")) as {
      components: {
        schemas: { ReviewDecision: { properties: { reason_code: { enum: string[] }; note: { maxLength: number } } } };
      };
    };
    const decision = document.components.schemas.ReviewDecision.properties;
    expect(CONSOLE_REJECTION_CODES).toEqual(decision.reason_code.enum);
    expect(CONSOLE_NOTE_LENGTH).toBe(decision.note.maxLength);
  });
});

describe("the console's files", () => {
  const policyOf = (response: Response) =>
    Object.fromEntries(
      (response.headers.get("content-security-policy") ?? "").split(";").map((directive) => {
        const [name = "", ...values] = directive.trim().split(/\s+/);
        return [name, values.join(" ")];
      }),
    );

  async function expectRouteNotFound(response: Response) {
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = problemSchema.parse(await response.json());
    expect(problem.code).toBe("route_not_found");
    expect(problem.request_id).toBe(response.headers.get("request-id"));
  }

  it("writes its settings into the page as text, never as markup, and refuses a page with nowhere to write them", () => {
    const page =
      '<meta name="identity-endpoint" content="%IDENTITY_ENDPOINT%"><meta name="client-id" content="%CLIENT_ID%">';
    expect(fillPage(page, { identityEndpoint: 'https://idp.test/?a=1&b="2"', clientId: "<script>'x'" })).toBe(
      '<meta name="identity-endpoint" content="https://idp.test/?a=1&amp;b=&quot;2&quot;">' +
        '<meta name="client-id" content="&lt;script&gt;&#39;x&#39;">',
    );
    expect(() => fillPage("<html></html>", { identityEndpoint: "https://idp.test/", clientId: "c" })).toThrow(
      /%IDENTITY_ENDPOINT%/,
    );
  });

  it("redirects /backoffice to /backoffice/, so the page's relative paths resolve", async () => {
    const response = await fetch(`${fx.api.backofficeUrl}/backoffice`, { redirect: "manual" });
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("backoffice/");
    expect(new URL("backoffice/", `${fx.api.backofficeUrl}/backoffice`).href).toBe(consoleUrl);
  });

  it("serves the page with its settings filled in, under a strict policy, with no token", async () => {
    const response = await fetch(consoleUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    const html = await response.text();
    const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1];
    expect(meta("identity-endpoint")).toBe(process.env.IDENTITY_ENDPOINT);
    expect(meta("client-id")).toBe(process.env.STAFF_CLIENT_ID);
    // Every file it loads is its own; links within the page (`#/audit`) load nothing.
    const loaded = [...html.matchAll(/(?:src|href)="([^"#][^"]*)"/g)].map((match) => match[1]);
    expect(html).toContain('href="#/audit"');
    expect(loaded).toEqual(["assets/favicon.svg", "assets/console.css", "assets/console.js"]);
    expect(html).not.toMatch(/<script>|<style|style="|\son[a-z]+="/i);
    expect(policyOf(response)).toEqual({
      "default-src": "'none'",
      "script-src": "'self'",
      "style-src": "'self'",
      // The viewer reads the copies' bytes and shows photos from the uploads bucket; it frames nothing.
      "connect-src": `'self' ${new URL(process.env.IDENTITY_ENDPOINT ?? "").origin} ${documentsOrigin}`,
      "frame-src": "'none'",
      "img-src": `'self' ${documentsOrigin}`,
      "base-uri": "'none'",
      "form-action": "'none'",
      "frame-ancestors": "'none'",
    });
  });

  it("serves the script, the styles and pdf.js by exact name, revalidated by entity tag, and nothing else", async () => {
    for (const [file, type] of [
      ["console.js", "text/javascript; charset=utf-8"],
      ["console.css", "text/css; charset=utf-8"],
      // pdf.js and its worker, loaded only when a PDF is shown.
      ["pdf.mjs", "text/javascript; charset=utf-8"],
      ["pdf.worker.mjs", "text/javascript; charset=utf-8"],
    ]) {
      const response = await fetch(`${consoleUrl}assets/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
      expect((await response.text()).length).toBeGreaterThan(1_000);
      const etag = response.headers.get("etag") ?? "";
      const again = await fetch(`${consoleUrl}assets/${file}`, { headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
    }
    const icon = await fetch(`${consoleUrl}assets/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // The bundle stays small (about 106 KB: typed calls, the keyboard flow, the trail's filters, every check's detail in both languages): the console loads fast on any connection (pdf.js, 1.7 MB, loads only with a PDF).
    expect((await (await fetch(`${consoleUrl}assets/console.js`)).text()).length).toBeLessThan(115_000);
    for (const name of ["index.html", "console.ts", "..%2Fbackoffice%2Findex.html", "..%2F..%2Fpackage.json"]) {
      await expectRouteNotFound(await fetch(`${consoleUrl}assets/${name}`));
    }
  });
});

describe("the console in headless chromium", () => {
  const chromium = useChromium();

  /** A new tab on the console, collecting script errors and policy violations. */
  async function openConsole(): Promise<{ page: Page; problems: string[] }> {
    const page = await chromium.browser().newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    const response = await page.goto(consoleUrl);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toContain("default-src 'none'");
    // The console opens in Turkish; these tests read it in English (console-language.test.ts reads both).
    await page.getByLabel("Dil", { exact: true }).selectOption("en");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByLabel("Username").focus();
    return { page, problems };
  }

  async function signIn(page: Page, user: StaffUser): Promise<void> {
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Review queue" }).waitFor();
  }

  /** Runs `expression` in the page (a string: this project type-checks tests without the DOM's types). */
  const inPage = <T>(page: Page, expression: string) => page.evaluate<T>(expression);

  /** What the page could have kept: nothing, the tokens live in memory only. */
  async function expectNothingStored(page: Page): Promise<void> {
    const stored = await inPage(
      page,
      "({ local: Object.keys(localStorage), session: Object.keys(sessionStorage), cookies: document.cookie })",
    );
    expect(stored).toEqual({ local: [], session: [], cookies: "" });
    expect(await chromium.browser().cookies()).toEqual([]);
  }

  const rowLink = (page: Page, id: string) => page.getByRole("link", { name: id, exact: true });
  // By id: an empty message region is hidden, and a role query would wait for it to show.
  const status = (page: Page) => page.locator("#status[role=status]");
  const alert = (page: Page) => page.locator("#alert[role=alert]");
  // What the claim and the decision say, beside the form.
  const itemStatus = (page: Page) => page.locator("#item-status[role=status]");
  const itemAlert = (page: Page) => page.locator("#item-alert[role=alert]");

  it("signs in, opens the oldest item with both copies, claims it and rejects it", async () => {
    const { page, problems } = await openConsole();
    // Each copy's link, as the page read it from the uploads bucket.
    const documentsLoaded = new Set<string>();
    page.on("response", (response) => {
      if (response.url().startsWith(documentsOrigin) && response.status() === 200) documentsLoaded.add(response.url());
    });
    await expectAccessible(page, "sign-in");
    await signIn(page, reviewer);
    await expectNothingStored(page);

    const [oldest] = waiting;
    if (!oldest) throw new Error("Nothing waits");
    const rows = page.locator("table.queue tbody tr");
    await expect.poll(() => rows.count()).toBe(waiting.length);
    await expect.poll(() => rows.first().innerText()).toContain(oldest.verification_id);
    expect(await rows.first().innerText()).toMatch(/Fields incomplete[\s\S]*Free/);
    await expectAccessible(page, "queue");

    await rowLink(page, oldest.verification_id).click();
    await page.getByRole("heading", { name: oldest.verification_id }).waitFor();
    // Both copies are read once, straight from the uploads bucket, and drawn by pdf.js (viewer.test.ts tries the viewer).
    for (const copy of ["upload", "issuer"]) await page.locator(`.viewer-pane[data-copy="${copy}"] canvas`).waitFor();
    expect(documentsLoaded.size).toBe(2);
    const item = page.locator("article.item");
    // The details fold to one line until opened.
    await page.locator("details.about > summary").click();
    await expect.poll(() => item.innerText()).toContain("EKSİKOĞLU");
    expect(await item.innerText()).toMatch(/Issuer's copy matches\s+Passed/);
    expect(await item.innerText()).toMatch(/Fields extracted\s+Failed/);
    await expectAccessible(page, "item");

    expect(await page.getByRole("button", { name: "Record decision" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: /^Claim/ }).click();
    // 24-hour, with the date when the 15 minutes end on another day (a run just before midnight).
    await expect
      .poll(() => itemStatus(page).innerText())
      .toMatch(/^You hold the claim until (?:[A-Z][a-z]{2} \d{1,2}, \d{4}, )?\d{2}:\d{2}\.$/);
    await expect.poll(() => page.locator("#claim-status").innerText()).toMatch(/^You hold the claim until/);
    await page.getByLabel("Rejected").check();
    await expectAccessible(page, "decision");

    const note = "Seal differs from the issuer's template";
    await page.getByLabel("Rejected").check();
    await page.getByLabel("Rejection reason").selectOption("not_genuine");
    await page.getByLabel("Note (optional)").fill(note);
    await page.getByRole("button", { name: "Record decision" }).click();
    await expect
      .poll(() => status(page).innerText())
      .toBe(`Decision recorded for ${oldest.verification_id}: Rejected.`);
    // The next item nobody else holds opens in its place, claimed; Back returns to the queue.
    const next = waiting[1]?.verification_id ?? "";
    await page.getByRole("heading", { name: next }).waitFor();
    await expect.poll(() => page.locator("#claim-status").innerText()).toMatch(/^You hold the claim until/);
    await page.getByRole("button", { name: /^Back to queue/ }).click();
    await page.getByRole("heading", { name: "Review queue" }).waitFor();
    await expect.poll(() => rows.count()).toBe(waiting.length - 1);

    // The customer sees the decision, and hears of it by a signed webhook that names no reviewer and no note.
    const final = expectVerification(await fx.customer.get(oldest.verification_id));
    expect(final).toMatchObject({ status: "completed", result: "rejected", reason_code: "not_genuine" });
    const completed = await completedDelivery(oldest.verification_id);
    const event = webhookEventSchema.parse(
      new Webhook(fx.app.webhook_secret).verify(completed.body, completed.headers),
    );
    expect(event.data.verification).toMatchObject({
      status: "completed",
      result: "rejected",
      reason_code: "not_genuine",
    });
    expect(completed.body).not.toContain(note);
    expect(completed.body).not.toContain(reviewer.username);

    await expectNothingStored(page);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("works by keyboard alone: move, open, claim, choose, back, and the shortcuts list", async () => {
    const { page, problems } = await openConsole();
    // A new tab starts signed out: nothing of the last session was kept.
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.keyboard.type(reviewer.username);
    await page.keyboard.press("Tab");
    await page.keyboard.type(reviewer.password);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Review queue" }).waitFor();

    const [, first, second] = waiting.map((verification) => verification.verification_id);
    const focused = () => inPage<string>(page, 'document.activeElement?.textContent ?? ""');
    await expect.poll(focused).toBe(first);
    await page.keyboard.press("j");
    await expect.poll(focused).toBe(second);
    await page.keyboard.press("k");
    await expect.poll(focused).toBe(first);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    await expect.poll(focused).toBe(first);

    await page.keyboard.press("?");
    await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });

    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: first }).waitFor();
    await expect.poll(() => page.locator("article.item").innerText()).toContain("There is no issuer's copy");
    expect(await page.locator('.viewer-pane[data-copy="issuer"] canvas').count()).toBe(0);

    await page.keyboard.press("c");
    await expect.poll(() => page.locator("#claim-status").innerText()).toMatch(/^You hold the claim until/);
    await page.keyboard.press("v");
    expect(await page.getByLabel("Verified").isChecked()).toBe(true);
    expect(await page.getByLabel("Rejection reason").isDisabled()).toBe(true);
    await page.keyboard.press("r");
    expect(await page.getByLabel("Rejected").isChecked()).toBe(true);
    expect(await page.getByLabel("Rejection reason").isDisabled()).toBe(false);
    // r moves focus into the form, and a reading of the item landing meanwhile (the claim's) leaves it there.
    await expect
      .poll(() => inPage<boolean>(page, 'document.activeElement?.closest("form.decision") !== null'))
      .toBe(true);

    // The first Esc leaves the form for the item's heading, the second goes back to the queue.
    await page.keyboard.press("Escape");
    await expect.poll(() => inPage<string>(page, 'document.activeElement?.id ?? ""')).toBe("item-title");
    await page.keyboard.press("Escape");
    await page.getByRole("heading", { name: "Review queue" }).waitFor();
    await expect.poll(focused).toBe(first);
    await expect.poll(() => page.locator("table.queue tbody tr.selected").innerText()).toMatch(/You until/);
    // Focus is drawn where it is: the focused row's link has an outline.
    expect(await inPage(page, "getComputedStyle(document.activeElement).outlineStyle")).toBe("solid");

    await expectNothingStored(page);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("asks a user who set up TOTP for the code, refuses a wrong one, and signs in with the right one", async () => {
    const user = await fx.api.staffUser(["reviewers"]);
    const { cognito } = fx.api.identity;
    const { SecretCode = "" } = await cognito.send(
      new AssociateSoftwareTokenCommand({ AccessToken: user.accessToken }),
    );
    const verified = await cognito.send(
      new VerifySoftwareTokenCommand({ AccessToken: user.accessToken, UserCode: totpCode(SecretCode, Date.now()) }),
    );
    expect(verified.Status).toBe("SUCCESS");

    const { page, problems } = await openConsole();
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Enter your code" }).waitFor();
    const wrong = totpCode(SecretCode, Date.now() + 5 * 60_000);
    await page.getByRole("textbox", { name: "Code" }).fill(wrong);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => alert(page).textContent()).toMatch(/\S/);
    await page.getByRole("textbox", { name: "Code" }).fill(totpCode(SecretCode, Date.now()));
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { name: "Review queue" }).waitFor();
    await expectNothingStored(page);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows another reviewer's claim by name, and a refusal by its detail", async () => {
    const { page, problems } = await openConsole();
    await signIn(page, otherReviewer);
    const [, claimed] = waiting;
    if (!claimed) throw new Error("Nothing waits");
    const row = page.locator("table.queue tbody tr", { has: rowLink(page, claimed.verification_id) });
    await expect.poll(() => row.innerText()).toContain(`${reviewer.username} until`);

    await rowLink(page, claimed.verification_id).click();
    await page.getByRole("heading", { name: claimed.verification_id }).waitFor();
    await page.getByRole("button", { name: /^Claim/ }).click();
    await expect.poll(() => itemAlert(page).innerText()).toContain(`${reviewer.username} holds the claim until`);
    // Not an ISO instant: the API's time in the page's clock.
    expect(await itemAlert(page).innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T/);

    // The form stays closed to a reviewer without the claim, and v says who holds it instead of choosing.
    expect(await page.getByLabel("Verified").isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Record decision" }).isDisabled()).toBe(true);
    await inPage(page, 'document.getElementById("item-alert").textContent = ""');
    await page.keyboard.press("v");
    await expect.poll(() => itemAlert(page).innerText()).toContain(`${reviewer.username} holds the claim until`);
    expect(await page.getByLabel("Verified").isChecked()).toBe(false);
    expect(expectVerification(await fx.customer.get(claimed.verification_id)).status).toBe("in_review");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.locator("table.queue").count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("passes axe-core on every screen in Turkish and in English, at desktop width and a phone's", async () => {
    const user = await fx.api.staffUser(["reviewers"]);
    const last = waiting.at(-1);
    if (!last) throw new Error("Nothing waits");
    // A new tab, in the console's own language: Turkish. Everything is found by id, not by its words.
    const page = await chromium.browser().newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(consoleUrl);
    const inEach = async (screen: string) => {
      for (const language of ["tr", "en"]) {
        await page.locator("#language").selectOption(language);
        await page.locator(`html[lang=${language}]`).waitFor();
        // Another language draws the screen again: it is checked once it has loaded.
        await expect.poll(() => page.locator("[aria-busy=true]").count()).toBe(0);
        await expectAccessible(page, `${screen} (${language})`);
      }
    };
    await page.locator("#sign-in-title").waitFor();
    await inEach("sign-in");
    await page.locator("input[name=username]").fill(user.username);
    await page.locator("input[name=password]").fill(user.password);
    await page.locator("form.sign-in button[type=submit]").click();
    await page.locator("table.queue tbody tr").first().waitFor();
    await inEach("queue");
    await page.locator(`a[data-id="${last.verification_id}"]`).click();
    await page.locator("#item-title").waitFor();
    await expect.poll(() => page.locator("article.item [aria-busy=true]").count()).toBe(0);
    await inEach("item");
    await page.keyboard.press("c");
    // Claimed: the decision's choices open.
    await expect.poll(() => page.locator("input[type=radio]").first().isDisabled()).toBe(false);
    await page.keyboard.press("r");
    await inEach("decision");
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
