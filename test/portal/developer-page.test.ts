/**
 * The portal's developer tools in a real browser (chromium through playwright-core), on the local
 * runtime: keys named, renamed, with their last use and revocation time; the events list, an
 * event opened to its payload, headers and numbered attempts and sent again; the verifications
 * page showing recent ones before any search, a lookup across apps (of a request too), and a
 * verification's timeline. Both languages on every screen: page-language.test.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalUser } from "../support/api.ts";
import { expectAccessible } from "../support/axe.ts";
import { useChromium } from "../support/chromium.ts";
import { Customer, call, callAs, expectVerification, upload, validBody } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture({ pipeline: true, receiver: true });
const certificate = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));

let owner: PortalUser;
let pageUrl: string;

beforeAll(async () => {
  owner = await fx.api.portalUser("owner");
  pageUrl = `${fx.api.portalUrl}/portal/`;
});

describe("the portal's developer tools in chromium", () => {
  const chromium = useChromium();

  async function openPortal(): Promise<{ page: Page; problems: string[] }> {
    const page = await chromium.browser().newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    expect((await page.goto(pageUrl))?.status()).toBe(200);
    return { page, problems };
  }

  async function signIn(page: Page, user: PortalUser): Promise<void> {
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Apps", exact: true }).waitFor();
  }

  async function takeSecrets(page: Page): Promise<string[]> {
    const dialog = page.locator("dialog#secrets");
    await dialog.waitFor();
    const values = await dialog
      .locator(".secret-value")
      .evaluateAll((inputs) => inputs.map((input) => (input as unknown as { value: string }).value));
    await page.getByRole("button", { name: "I have copied it" }).click();
    await dialog.waitFor({ state: "hidden" });
    return values;
  }

  const status = (page: Page) => page.locator("#status[role=status]");

  /** The owner signed in on the Webhooks screen of a new app whose destination is the receiver. */
  async function openWebhooksOfNewApp(): Promise<{ page: Page; problems: string[] }> {
    const app = await fx.api.organizationApp(owner.organizationId, fx.receiver.url);
    const opened = await openPortal();
    await signIn(opened.page, owner);
    await opened.page.getByRole("link", { name: "Webhooks" }).click();
    await opened.page.getByLabel("App", { exact: true }).selectOption(app.app_id);
    return opened;
  }

  it("names a key, shows its last use, renames it and shows when it was revoked", async () => {
    const { page, problems } = await openPortal();
    await signIn(page, owner);
    await page.getByLabel("Name", { exact: true }).fill("Keys app");
    await page.getByLabel("First key's name (optional)").fill("Web servers");
    await page.getByRole("button", { name: "Create app" }).click();
    const [apiKey = ""] = await takeSecrets(page);
    const card = page.locator("article", { has: page.getByRole("heading", { name: "Keys app" }) });
    const keys = card.getByRole("table");
    // Rows by their key's prefix: two keys made within one second list in either order.
    const prefix = apiKey.slice(0, 19);
    const firstRow = keys.locator("tbody tr", { hasText: prefix });
    const otherRow = keys.locator("tbody tr", { hasNotText: prefix });
    await expect.poll(() => firstRow.innerText()).toContain("Never");
    // A name is text with a Rename action, not an open box.
    expect(await firstRow.locator(".key-name").innerText()).toBe("Web servers");
    expect(await keys.getByRole("textbox").count()).toBe(0);

    // Used on the public API; the next drawing (after a rotation) shows when.
    expect((await call(fx.api.baseUrl, "GET", "/v1/verifications", { headers: { "X-API-Key": apiKey } })).status).toBe(
      200,
    );
    await card.getByLabel("New key's name (optional)").fill("Batch jobs");
    await card.getByRole("button", { name: "Rotate key" }).click();
    await takeSecrets(page);
    await expect.poll(() => keys.locator("tbody tr").count()).toBe(2);
    // Created, expires (the rotation gave it an expiry), last used.
    await expect.poll(() => firstRow.locator("time").count()).toBe(3);
    expect(await firstRow.innerText()).not.toContain("Never");
    expect(await otherRow.innerText()).toContain("Never");
    expect(await otherRow.locator(".key-name").innerText()).toBe("Batch jobs");

    // Rename opens a box with the name in it; Esc leaves it as it was, Save renames.
    await firstRow.getByRole("button", { name: `Rename key ${prefix}…` }).click();
    const nameInput = card.getByRole("textbox", { name: `Key name ${prefix}…` });
    expect(await nameInput.inputValue()).toBe("Web servers");
    await expectAccessible(page, "a key being renamed");
    await nameInput.fill("Not kept");
    await page.keyboard.press("Escape");
    expect(await keys.getByRole("textbox").count()).toBe(0);
    expect(await firstRow.locator(".key-name").innerText()).toBe("Web servers");
    await firstRow.getByRole("button", { name: `Rename key ${prefix}…` }).click();
    await nameInput.fill("Old web servers");
    await firstRow.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => status(page).innerText()).toBe("The key is renamed.");
    await expect.poll(() => firstRow.locator(".key-name").innerText()).toBe("Old web servers");

    // Revoked: the time it was revoked is shown.
    await firstRow.getByRole("button", { name: /^Revoke key/ }).click();
    await page.locator("#confirm-ok").click();
    await expect.poll(() => firstRow.innerText()).toContain("Revoked");
    // Created, expires (the rotation gave it an expiry), revoked, last used.
    await expect.poll(() => firstRow.locator("time").count()).toBe(4);
    const revokedAt = await firstRow.locator("td").nth(6).locator("time").getAttribute("datetime");
    expect(revokedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    await expectAccessible(page, "apps with named keys");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("lists an app's requests newest first, shows why one was refused, filters by status class, and opens a request's verification", async () => {
    const app = await fx.api.organizationApp(owner.organizationId);
    const customer = new Customer(fx.api.baseUrl, app.api_key);
    const created = await customer.created({ external_reference_id: "request-log" });
    expect((await customer.create({ ...validBody(), file_size_bytes: 0 })).status).toBe(422);

    const { page, problems } = await openPortal();
    await signIn(page, owner);
    await page.getByRole("link", { name: "Requests" }).click();
    await page.getByLabel("App", { exact: true }).selectOption(app.app_id);
    const rows = page.locator("#requests-list-title ~ div table tbody tr");
    await expect.poll(() => rows.count()).toBe(2);
    // Newest first: the refusal, by its label and its field's code, then the create.
    expect(await rows.nth(0).innerText()).toMatch(
      /POST \/v1\/verifications[\s\S]*422[\s\S]*Validation failed[\s\S]*file_size_bytes · too small/,
    );
    expect(await rows.nth(1).innerText()).toContain(created.verification_id);

    await page.getByLabel("Show", { exact: true }).selectOption("2xx");
    await expect.poll(() => rows.count()).toBe(1);
    await rows.nth(0).getByRole("button", { name: "Open" }).click();
    await expect.poll(() => page.locator("#verification-detail").innerText()).toContain("request-log");
    await expectAccessible(page, "requests");

    // A window with none of them says so.
    await page.getByLabel("From", { exact: true }).fill("2099-01-01");
    await expect.poll(() => page.locator("#view").innerText()).toContain("No requests in this window.");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("says why a delivery failed in the page's words, in English and in Turkish", async () => {
    const { page, problems } = await openWebhooksOfNewApp();
    fx.receiver.answer = 503;
    try {
      await page.getByRole("button", { name: "Send test event" }).click();
      await expect
        .poll(() => page.locator("#alert").innerText())
        .toMatch(/^Test event evt_\w+ was not delivered: HTTP 503/);
    } finally {
      fx.receiver.answer = 200;
    }
    const row = page.locator("#deliveries-title ~ div table tbody tr").first();
    await row.locator("summary").click();
    await expect.poll(() => row.innerText()).toContain("Your endpoint answered 503, not a 2xx status.");
    await page.locator("#language").selectOption("tr");
    await page.locator("html[lang=tr]").waitFor();
    // The screen is drawn again in Turkish: the row's answer opened anew.
    const again = page.locator("#deliveries-title ~ div table tbody tr").first();
    await again.locator("summary").click();
    await expect.poll(() => again.innerText()).toContain("Uç noktanız 2xx değil, 503 yanıtı verdi.");
    expect(await page.locator("#view").innerText()).not.toContain("answered 503");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("lists an app's events, opens one to its payload, headers and attempts, and sends it again as attempt 2", async () => {
    const { page, problems } = await openWebhooksOfNewApp();
    const before = fx.receiver.deliveries.length;
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect
      .poll(() => status(page).innerText())
      .toMatch(/^Test event evt_\w+ was delivered: HTTP 200 in \d+ ms\.$/);
    const eventId = /evt_\w+/.exec(await status(page).innerText())?.[0] ?? "";
    await fx.receiver.waitFor(before + 1);

    const events = page.locator("#events-title ~ div table tbody tr");
    await expect.poll(() => events.count()).toBe(1);
    expect(await events.first().innerText()).toContain("Test event");
    await page.getByRole("button", { name: `Open: ${eventId}` }).click();
    const detail = page.locator("#event-detail");
    await expect.poll(() => detail.innerText()).toContain("Attempt 1");
    const shown = await detail.innerText();
    expect(shown).toContain('"type": "webhook.test"');
    expect(shown).toContain(`webhook-id: ${eventId}`);
    expect(shown).toMatch(/webhook-signature: v1,\S+/);
    expect(shown).toContain(fx.receiver.url);

    await detail.getByRole("button", { name: `Send now: ${eventId}` }).click();
    // Sent at once through the delivery queue (no tick runs here), and the page says how it went
    // as soon as the attempt is recorded, showing it in the event without a reload.
    await expect
      .poll(() => status(page).innerText(), { timeout: 20_000 })
      .toBe(`Attempt 2 of event ${eventId}: HTTP 200 · Delivered.`);
    await fx.receiver.waitFor(before + 2);
    await expect.poll(() => detail.innerText()).toContain("Attempt 2");
    expect(await detail.innerText()).toContain("Attempt 1");
    // The deliveries log, read again with the attempt, numbers the second send 2 as well (both
    // may fall in one second, whose attempts the log lists in no particular order).
    await expect
      .poll(() => page.locator("#deliveries-title ~ div table tbody tr td:nth-child(3)").allInnerTexts())
      .toEqual(expect.arrayContaining(["1", "2"]));
    await expectAccessible(page, "webhooks with events");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("shows the organisation's recent verifications before any search, and looks one up by its reference", async () => {
    const member = await fx.api.portalUser("owner");
    const [one, two] = await Promise.all([
      fx.api.organizationApp(member.organizationId),
      fx.api.organizationApp(member.organizationId),
    ]);
    if (!one || !two) throw new Error("no apps");
    const reference = `page-lookup-${crypto.randomUUID().slice(0, 8)}`;
    const first = await new Customer(fx.api.baseUrl, one.api_key).created({ external_reference_id: reference });
    const second = await new Customer(fx.api.baseUrl, two.api_key).created({ external_reference_id: "elsewhere" });

    const { page, problems } = await openPortal();
    await signIn(page, member);
    await page.getByRole("link", { name: "Verifications" }).click();
    const lookup = page.locator("#lookup");
    await expect.poll(() => lookup.locator("tbody tr").count()).toBe(2);
    const recent = await lookup.innerText();
    expect(recent).toContain("Recent verifications");
    expect(recent).toContain(first.verification_id);
    expect(recent).toContain(second.verification_id);
    expect(recent).toContain(two.name);

    await page.getByLabel("Find", { exact: true }).fill(reference);
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => lookup.locator("tbody tr").count()).toBe(1);
    expect(await lookup.innerText()).toContain(first.verification_id);
    await lookup.getByRole("button", { name: "Open" }).click();
    await expect.poll(() => page.locator("#verification-detail").innerText()).toContain(first.verification_id);
    await expectAccessible(page, "verifications with lookup");

    // The same form narrows one app: a status alone asks for the app first, then lists its own.
    await page.getByLabel("Find", { exact: true }).fill("");
    await page.getByLabel("Status", { exact: true }).selectOption("awaiting_upload");
    await page.getByRole("button", { name: "Search" }).click();
    await expect
      .poll(() => page.locator("#alert").innerText())
      .toBe("Choose an app to narrow by status or creation day.");
    await page.getByLabel("App", { exact: true }).selectOption(two.app_id);
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => lookup.innerText()).toContain(second.verification_id);
    expect(await lookup.locator("tbody tr").count()).toBe(1);
    expect(await lookup.innerText()).not.toContain(first.verification_id);

    // A creation day is the reader's day: in Tokyo, today starts at Tokyo's midnight, and holds what was just made.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setTimezoneOverride", { timezoneId: "Asia/Tokyo" });
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Tokyo" }).format(new Date());
    await page.getByLabel("Status", { exact: true }).selectOption("");
    await page.getByLabel("Created from", { exact: true }).fill(today);
    await page.getByLabel("Created to", { exact: true }).fill(today);
    const asked = page.waitForRequest((request) => request.url().includes("created_after="));
    await page.getByRole("button", { name: "Search" }).click();
    const sent = new URL((await asked).url()).searchParams;
    const midnight = new Date(`${today}T00:00:00+09:00`);
    expect(sent.get("created_after")).toBe(midnight.toISOString());
    expect(sent.get("created_before")).toBe(new Date(midnight.getTime() + 24 * 3600 * 1000).toISOString());
    await expect.poll(() => lookup.innerText()).toContain(second.verification_id);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("looks up a refused request by its request_id: the request alone, its refusal by its label", async () => {
    const member = await fx.api.portalUser("owner");
    const app = await fx.api.organizationApp(member.organizationId);
    const refused = await new Customer(fx.api.baseUrl, app.api_key).create({ document_type: "YOK_STUDENT" });
    expect(refused.status).toBe(422);
    const requestId = refused.headers.get("Request-Id") ?? "";

    const { page, problems } = await openPortal();
    await signIn(page, member);
    await page.getByRole("link", { name: "Verifications" }).click();
    await page.getByLabel("Find", { exact: true }).fill(requestId);
    await page.getByRole("button", { name: "Search" }).click();
    const rows = page.locator("#lookup tbody tr");
    await expect.poll(() => rows.count()).toBe(1);
    const row = await rows.first().innerText();
    expect(row).toContain("Request id");
    expect(row).toContain("POST /v1/verifications · 422 · Validation failed");
    // Why, field by field, by the codes' labels.
    expect(row).toMatch(/original_filename · required/);
    expect(row).toContain(app.name);
    expect(row).not.toContain("validation_failed");
    // It made no verification: nothing to open.
    expect(await rows.first().getByRole("button", { name: "Open" }).count()).toBe(0);
    await expectAccessible(page, "lookup of a request");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("shows a verification's timeline: its events in the order they happened, each with every attempt numbered", async () => {
    const member = await fx.api.portalUser("owner");
    const app = await fx.api.organizationApp(member.organizationId, fx.receiver.url);
    const customer = new Customer(fx.api.baseUrl, app.api_key);
    const created = await customer.created({ file_size_bytes: certificate.length, process_type: "sync" });
    expect((await upload(created, certificate)).status).toBe(200);
    expect(expectVerification(await customer.confirm(created.verification_id)).status).toBe("completed");
    await fx.api.handlers.tick();
    const before = fx.receiver.deliveries.length;

    const { page, problems } = await openPortal();
    await signIn(page, member);
    await page.getByRole("link", { name: "Verifications" }).click();
    await page.getByLabel("Find", { exact: true }).fill(created.verification_id);
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => page.locator("#lookup tbody tr").count()).toBe(1);
    await page.locator("#lookup").getByRole("button", { name: "Open" }).click();
    const timeline = page.locator("section[aria-labelledby=timeline-title]");
    const events = timeline.locator("li.timeline-event");
    await expect.poll(() => events.count(), { timeout: 30_000 }).toBe(2);
    expect(await events.nth(0).innerText()).toMatch(/^Verification processing/);
    expect(await events.nth(1).innerText()).toMatch(/^Verification completed/);
    for (const event of await events.all()) {
      await expect.poll(() => event.innerText()).toMatch(/Attempt 1 · .* · HTTP 200 · Delivered/);
    }

    // Sent again from the events list's route: the timeline numbers the new attempt 2.
    const completedId = (await events.nth(1).locator("code").innerText()).trim();
    const sent = await callAs(fx.api.portalUrl, member.accessToken, "POST", `/portal/v1/events/${completedId}/send`);
    expect(sent.status, sent.text).toBe(202);
    // Made at once through the delivery queue: no tick runs here.
    await fx.receiver.waitFor(before + 1);
    await page.locator("#lookup").getByRole("button", { name: "Open" }).click();
    await expect
      .poll(() => events.nth(1).locator("ol.attempts li").allInnerTexts())
      .toEqual([expect.stringMatching(/^Attempt 1 /), expect.stringMatching(/^Attempt 2 /)]);
    expect(await events.nth(0).locator("ol.attempts li").count()).toBe(1);
    await expectAccessible(page, "a verification's timeline");
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
