/**
 * The customer portal in a real browser: Debian's headless chromium driven by playwright-core,
 * against the local runtime and its identity endpoint. An owner signs in, creates an app and
 * sees its key once, uses the key, rotates it, points the webhook at a receiver, sends the test
 * event, sees the delivery and replays it, finds a verification by its reference and sees it
 * counted; a viewer sees nothing that changes anything.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { testEventSchema } from "#shared/domain/responses/events";
import type {
  createdAppSchema,
  deliverySchema,
  invitedSchema,
  memberSchema,
  meSchema,
  portalAppSchema,
  rotatedKeySchema,
  rotatedSecretSchema,
  testDeliverySchema,
  usageRowSchema,
} from "#shared/domain/responses/portal";
import type { listedVerificationSchema } from "#shared/domain/responses/verification";
import { STATUSES } from "#shared/domain/state";
import { APPS_PER_ORGANIZATION, SENDING_LIMITS } from "#shared/domain/tenant-limits";
import { USAGE_OUTCOMES, type UsageOutcome } from "#shared/domain/usage";
import { problemSchema } from "#shared/http/problem-schema";
import type { ProblemBody } from "../../web/common/problem.ts";
import { STATUSES as PAGE_STATUSES } from "../../web/portal/order.ts";
import type { components } from "../../web/portal/schema.ts";
import type * as wire from "../../web/portal/wire.ts";
import { OUTCOMES as PAGE_OUTCOMES } from "../../web/portal/wire.ts";
import type { PortalUser } from "../support/api.ts";
import { expectAccessible, PHONE } from "../support/axe.ts";
import { useChromium } from "../support/chromium.ts";
import { Customer, call, expectVerification, upload } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture({ pipeline: true, receiver: true });
const certificate = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));

let owner: PortalUser;
let viewer: PortalUser;
let pageUrl: string;

beforeAll(async () => {
  owner = await fx.api.portalUser("owner");
  viewer = await fx.api.portalUser("viewer", owner.organizationId);
  pageUrl = `${fx.api.portalUrl}/portal/`;
});

describe("the page's wire types", () => {
  it("read and write what the API's schemas define", () => {
    expectTypeOf<z.output<typeof meSchema>>().toExtend<wire.Me>();
    expectTypeOf<z.output<typeof portalAppSchema>>().toExtend<wire.App>();
    expectTypeOf<z.output<typeof createdAppSchema>>().toExtend<wire.CreatedApp>();
    expectTypeOf<z.output<typeof rotatedKeySchema>>().toExtend<wire.RotatedKey>();
    expectTypeOf<z.output<typeof rotatedSecretSchema>>().toExtend<wire.RotatedSecret>();
    expectTypeOf<z.output<typeof deliverySchema>>().toExtend<wire.Delivery>();
    expectTypeOf<z.output<typeof testDeliverySchema>>().toExtend<wire.TestDelivery>();
    expectTypeOf<z.output<typeof listedVerificationSchema>>().toExtend<wire.Verification>();
    expectTypeOf<z.output<typeof usageRowSchema>>().toExtend<wire.UsageRow>();
    expectTypeOf<z.output<typeof memberSchema>>().toExtend<wire.MemberPage["data"][number]>();
    expectTypeOf<z.output<typeof invitedSchema>>().toExtend<wire.Invited>();
    expectTypeOf<(typeof PAGE_STATUSES)[number]>().toEqualTypeOf<wire.Status>();
    expectTypeOf<wire.Outcome>().toEqualTypeOf<UsageOutcome>();
    expectTypeOf<components["schemas"]["Problem"]>().toExtend<ProblemBody>();
    expect(PAGE_STATUSES).toEqual(STATUSES);
    expect(PAGE_OUTCOMES).toEqual(USAGE_OUTCOMES);
  });

  it("offer the statuses and count the outcomes openapi-portal.json gives, in its order", () => {
    const document = JSON.parse(readFileSync(path.resolve(__dirname, "../../openapi-portal.json"), "utf8")) as {
      components: {
        schemas: {
          Verification: { properties: { status: { enum: string[] } } };
          UsageRow: { properties: Record<string, unknown> };
        };
      };
    };
    const { Verification, UsageRow } = document.components.schemas;
    expect(PAGE_STATUSES).toEqual(Verification.properties.status.enum);
    expect(Object.keys(UsageRow.properties)).toEqual(["day", "app_id", ...PAGE_OUTCOMES, "total"]);
  });
});

describe("the page's files", () => {
  it("redirects /portal to /portal/ and serves the page under a policy that frames nothing and talks to its pool only", async () => {
    const bare = await fetch(`${fx.api.portalUrl}/portal`, { redirect: "manual" });
    expect(bare.status).toBe(308);
    expect(bare.headers.get("location")).toBe("portal/");
    const page = await fetch(pageUrl);
    expect(page.status).toBe(200);
    const policy = page.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain(`connect-src 'self' ${new URL(process.env.IDENTITY_ENDPOINT ?? "").origin}`);
    const html = await page.text();
    expect(html).toContain('content="localportalpage"');
    expect(html).toContain('<link rel="icon" href="assets/favicon.svg" type="image/svg+xml">');
    for (const [file, type] of [
      ["portal.js", "text/javascript"],
      ["portal.css", "text/css"],
      ["favicon.svg", "image/svg+xml"],
    ]) {
      const asset = await fetch(`${fx.api.portalUrl}/portal/assets/${file}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-type")).toContain(type);
    }
    const missing = await fetch(`${fx.api.portalUrl}/portal/assets/console.js`);
    expect(missing.status).toBe(404);
    expect(problemSchema.parse(await missing.json()).code).toBe("route_not_found");
  });
});

describe("the portal in chromium", () => {
  const chromium = useChromium();

  async function openPortal(): Promise<{ page: Page; problems: string[] }> {
    const page = await chromium.browser().newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    expect((await page.goto(pageUrl))?.status()).toBe(200);
    return { page, problems };
  }

  async function signIn(page: Page, user: PortalUser): Promise<void> {
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Apps", exact: true }).waitFor();
  }

  const inPage = <T>(page: Page, expression: string) => page.evaluate<T>(expression);
  const status = (page: Page) => page.locator("#status[role=status]");

  /** Every visible form control has a label a screen reader announces. */
  async function expectLabelled(page: Page): Promise<void> {
    const unlabelled = await inPage<string[]>(
      page,
      `[...document.querySelectorAll("input, select, textarea")]
        .filter((control) => control.type !== "hidden" && control.offsetParent !== null)
        .filter((control) => control.labels.length === 0 && !control.getAttribute("aria-label"))
        .map((control) => control.id || control.name)`,
    );
    expect(unlabelled).toEqual([]);
  }

  /** At a phone's width the delivery's row is a card: its outcome and its Replay button are on the screen, not cut off. */
  async function expectDeliveryOnPhone(page: Page, eventId: string): Promise<void> {
    const desktop = page.viewportSize();
    await page.setViewportSize(PHONE);
    try {
      const row = page.locator("#deliveries-title ~ div table tbody tr").first();
      for (const [what, control] of [
        ["Outcome", row.locator("td[data-label='Outcome'] .badge")],
        ["Replay", page.getByRole("button", { name: `Replay event ${eventId}` }).first()],
      ] as const) {
        await control.scrollIntoViewIfNeeded();
        const box = await control.boundingBox();
        expect(box, what).not.toBeNull();
        expect(box?.width ?? 0, what).toBeGreaterThan(0);
        expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= PHONE.width, `${what} on the screen`).toBe(
          true,
        );
      }
    } finally {
      if (desktop) await page.setViewportSize(desktop);
    }
  }

  /** At a phone's width the chart's day labels are drawn at least 10 px tall. */
  async function expectChartReadableOnPhone(page: Page): Promise<void> {
    const desktop = page.viewportSize();
    await page.setViewportSize(PHONE);
    try {
      const heights = await inPage<number[]>(
        page,
        `[...document.querySelectorAll("figure svg text.axis-label")].map((label) => label.getBoundingClientRect().height)`,
      );
      expect(heights.length).toBeGreaterThan(1);
      expect(Math.min(...heights)).toBeGreaterThanOrEqual(10);
    } finally {
      if (desktop) await page.setViewportSize(desktop);
    }
  }

  /** The secrets the dialog shows, then closed by the user. */
  async function takeSecrets(page: Page): Promise<string[]> {
    const dialog = page.locator("dialog#secrets");
    await dialog.waitFor();
    // Focus is in the dialog, which keeps it until closed.
    expect(await inPage<string>(page, "document.activeElement?.closest('dialog')?.id")).toBe("secrets");
    const values = await dialog
      .locator(".secret-value")
      .evaluateAll((inputs) => inputs.map((input) => (input as unknown as { value: string }).value));
    await page.getByRole("button", { name: "I have copied it" }).click();
    await dialog.waitFor({ state: "hidden" });
    return values;
  }

  /** A new app from the page: its key and its secret shown once, in a dialog, and nowhere else. */
  async function createAppOnPage(page: Page): Promise<{ apiKey: string; webhookSecret: string; card: Locator }> {
    // A new app: the key and the secret, once.
    await page.getByLabel("Name", { exact: true }).fill("Admissions");
    await page.getByRole("button", { name: "Create app" }).click();
    const dialog = page.locator("dialog#secrets");
    await dialog.waitFor();
    // Focus moves to the dialog, onto the button that closes it.
    expect(await inPage<string>(page, "document.activeElement?.id")).toBe("secrets-close");
    await dialog.getByRole("button", { name: "Copy API key" }).click();
    await expect.poll(() => dialog.locator(".copied").first().innerText()).toBe("Copied.");
    const clipboard = await inPage<string>(page, "navigator.clipboard.readText()");
    const [apiKey = "", webhookSecret = ""] = await takeSecrets(page);
    expect(clipboard).toBe(apiKey);
    expect(apiKey).toMatch(/^vk_sandbox_/);
    expect(webhookSecret).toMatch(/^whsec_/);
    const card = page.locator("article", { has: page.getByRole("heading", { name: "Admissions" }) });
    await card.waitFor();
    await expectAccessible(page, "apps");
    const shown = await inPage<string>(page, "document.documentElement.outerHTML");
    expect(shown).not.toContain(apiKey);
    expect(shown).not.toContain(webhookSecret);
    return { apiKey, webhookSecret, card };
  }

  /** Rotating from the app's card: a new key, once; the old one keeps working for the grace period. */
  async function rotateOnPage(page: Page, card: Locator, apiKey: string): Promise<string> {
    // Rotate: a new key, once; the old one keeps working for the grace period.
    await card.getByRole("button", { name: "Rotate key" }).click();
    const [rotatedKey = ""] = await takeSecrets(page);
    expect(rotatedKey).toMatch(/^vk_sandbox_/);
    await expect.poll(() => card.getByText("Expiring").count()).toBe(1);
    for (const key of [apiKey, rotatedKey]) {
      expect((await call(fx.api.baseUrl, "GET", "/v1/verifications", { headers: { "X-API-Key": key } })).status).toBe(
        200,
      );
    }
    return rotatedKey;
  }

  /** The webhook: the receiver, a signed test event, its delivery, a replay. */
  async function webhookOnPage(page: Page, webhookSecret: string): Promise<void> {
    // The webhook: the receiver, a signed test event, its delivery, a replay.
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks", exact: true }).waitFor();
    await page.getByLabel("Destination URL").fill(fx.receiver.url);
    await page.getByRole("button", { name: "Save destination" }).click();
    await expect.poll(() => status(page).innerText()).toContain(`now go to ${fx.receiver.url}`);
    // The sends by hand an app may make, from the one declaration.
    expect(await page.locator("#sending-limits").innerText()).toBe(
      `An app may send ${SENDING_LIMITS.test.most} test event every ${SENDING_LIMITS.test.perSeconds} seconds, and send or replay ${SENDING_LIMITS.manual.most} events by hand every ${SENDING_LIMITS.manual.perSeconds / 3600} hour.`,
    );
    const before = fx.receiver.deliveries.length;
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect
      .poll(() => status(page).innerText())
      .toMatch(/^Test event evt_\w+ was delivered: HTTP 200 in \d+ ms\.$/);
    const eventId = /evt_\w+/.exec(await status(page).innerText())?.[0] ?? "";
    const [received] = (await fx.receiver.waitFor(before + 1)).slice(before);
    const event = testEventSchema.parse(
      new Webhook(webhookSecret).verify(received?.body ?? "", received?.headers ?? {}),
    );
    expect(event.id).toBe(eventId);
    const rows = page.locator("#deliveries-title ~ div table tbody tr");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain(eventId);
    await page.getByRole("button", { name: `Replay event ${eventId}` }).click();
    await expect.poll(() => status(page).innerText()).toContain("is being sent again");
    // Made at once through the delivery queue: no tick runs here.
    await fx.receiver.waitFor(before + 2);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => rows.count()).toBe(2);
    await expectAccessible(page, "webhooks and deliveries");
    await expectDeliveryOnPhone(page, eventId);
  }

  /** A verification made with the rotated key, found by its reference. */
  async function verificationOnPage(page: Page, customer: Customer, rotatedKey: string): Promise<void> {
    // A verification made with the rotated key, found by its reference.
    const reference = `test_verified_${crypto.randomUUID().slice(0, 8)}`;
    const created = await new Customer(fx.api.baseUrl, rotatedKey).created({
      external_reference_id: reference,
      file_size_bytes: certificate.length,
      process_type: "sync",
    });
    expect((await upload(created, certificate)).status).toBe(200);
    expect(expectVerification(await customer.confirm(created.verification_id))).toMatchObject({ status: "completed" });
    await page.getByRole("link", { name: "Verifications" }).click();
    await page.getByRole("heading", { name: "Verifications", exact: true }).waitFor();
    // One form: the app and a reference search that app's verifications.
    await page.getByLabel("App", { exact: true }).selectOption({ label: "Admissions" });
    await page.getByLabel("Status", { exact: true }).selectOption("completed");
    await page.getByLabel("Find", { exact: true }).fill(reference);
    await page.getByRole("button", { name: "Search" }).click();
    const found = page.getByRole("button", { name: created.verification_id });
    await found.click();
    const detail = page.locator("#verification-detail");
    await expect.poll(() => detail.innerText()).toContain(reference);
    expect(await detail.innerText()).toMatch(/Completed · Verified/);
    expect(await detail.innerText()).toMatch(/Reason\s+Verified/);
    await expectAccessible(page, "verifications");
  }

  /** Usage counts it. */
  async function usageOnPage(page: Page): Promise<void> {
    // Usage counts it.
    await page.getByRole("link", { name: "Usage" }).click();
    await page.getByRole("heading", { name: "Usage", exact: true }).waitFor();
    const totals = page.getByRole("list", { name: "Totals" });
    await expect.poll(() => totals.innerText(), { timeout: 10_000 }).toMatch(/1\s+in all[\s\S]*1\s+Verified/);
    expect(await page.locator("figure svg rect.bar.verified").count()).toBe(1);
    await expectLabelled(page);
    await expectAccessible(page, "usage");
    await expectChartReadableOnPhone(page);
  }

  it("takes an owner from a new app to a verified webhook delivery, a replay, a search and usage", async () => {
    await chromium.browser().grantPermissions(["clipboard-read", "clipboard-write"], { origin: fx.api.portalUrl });
    const { page, problems } = await openPortal();
    await expectLabelled(page);
    await expectAccessible(page, "sign-in");
    await signIn(page, owner);
    await expectLabelled(page);

    const { apiKey, webhookSecret, card } = await createAppOnPage(page);

    // The key works on the public API.
    const customer = new Customer(fx.api.baseUrl, apiKey);
    expect((await call(fx.api.baseUrl, "GET", "/v1/verifications", { headers: { "X-API-Key": apiKey } })).status).toBe(
      200,
    );

    const rotatedKey = await rotateOnPage(page, card, apiKey);
    await webhookOnPage(page, webhookSecret);
    await verificationOnPage(page, customer, rotatedKey);
    await usageOnPage(page);

    const stored = await inPage(
      page,
      "({ local: Object.keys(localStorage), session: Object.keys(sessionStorage), cookies: document.cookie })",
    );
    expect(stored).toEqual({ local: [], session: [], cookies: "" });
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("lets an owner invite by email, change a person's role and remove them; their own row has no control", async () => {
    const organizationOwner = await fx.api.portalUser("owner");
    const colleague = await fx.api.portalUser("developer", organizationOwner.organizationId);
    const { page, problems } = await openPortal();
    await signIn(page, organizationOwner);
    await page.getByRole("link", { name: "People" }).click();
    await page.getByRole("heading", { name: "People", exact: true }).waitFor();
    await expectLabelled(page);
    const people = page.getByRole("table", { name: "People of your organisation" });
    await people.waitFor();
    await expectAccessible(page, "people");
    const ownRow = people.getByRole("row").filter({ hasText: organizationOwner.username });
    expect(await ownRow.getByRole("button").count()).toBe(0);

    const newcomer = `page-${crypto.randomUUID().slice(0, 8)}`;
    await page.getByLabel("Username").fill(newcomer);
    await page.getByLabel("Email").fill(`${newcomer}@example.com`);
    await page.getByRole("button", { name: "Invite" }).click();
    await expect.poll(() => status(page).innerText()).toContain(`on its way to ${newcomer}@example.com`);
    const invitation = fx.api.identity.invitationOf(newcomer);
    expect(await page.content()).not.toContain(invitation?.temporaryPassword);

    expect(await people.getByRole("row").filter({ hasText: colleague.username }).innerText()).toContain("Developer");
    await page.getByLabel(`Role of ${colleague.username}`).selectOption("viewer");
    await people
      .getByRole("row")
      .filter({ hasText: colleague.username })
      .getByRole("button", { name: "Change role" })
      .click();
    await expect.poll(() => status(page).innerText()).toContain(`${colleague.username} is now Viewer`);
    // Roles read by their labels, never their codes.
    await expect
      .poll(() => people.getByRole("row").filter({ hasText: colleague.username }).innerText())
      .toContain("Viewer");

    await people
      .getByRole("row")
      .filter({ hasText: colleague.username })
      .getByRole("button", { name: "Remove" })
      .click();
    await page.locator("dialog#confirm").waitFor();
    await page.locator("#confirm-ok").click();
    await expect.poll(() => status(page).innerText()).toContain(`${colleague.username} is no longer a member`);
    await expect.poll(() => people.innerText()).not.toContain(colleague.username);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows a viewer everything of the organisation and no control that changes anything", async () => {
    const { page, problems } = await openPortal();
    await signIn(page, viewer);
    await expect.poll(() => status(page).innerText()).toContain("a viewer");
    await page.getByRole("heading", { name: "Admissions" }).first().waitFor();
    for (const name of ["Create app", "Rotate key", "Revoke"]) {
      expect(await page.getByRole("button", { name }).count(), name).toBe(0);
    }
    expect(await page.getByRole("link", { name: "People" }).isVisible()).toBe(false);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Deliveries" }).waitFor();
    await expect.poll(() => page.locator("#deliveries-title ~ div table tbody tr").count()).toBeGreaterThan(0);
    for (const name of ["Save destination", "Send test event", "Rotate signing secret", /^Replay/]) {
      expect(await page.getByRole("button", { name }).count(), String(name)).toBe(0);
    }
    expect(await page.getByLabel("Destination URL").getAttribute("readonly")).not.toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows how many apps the organisation has of its limit, in English and in Turkish", async () => {
    const member = await fx.api.portalUser("owner");
    for (let n = 0; n < 2; n++) await fx.api.organizationApp(member.organizationId);
    const usage = (page: Page) => page.locator("#apps-usage");

    const { page, problems } = await openPortal();
    await signIn(page, member);
    await expect.poll(() => usage(page).innerText()).toBe(`Apps: 2 of ${APPS_PER_ORGANIZATION}`);
    await page.getByLabel("Name", { exact: true }).fill("Third");
    await page.getByRole("button", { name: "Create app" }).click();
    await takeSecrets(page);
    await expect.poll(() => usage(page).innerText()).toBe(`Apps: 3 of ${APPS_PER_ORGANIZATION}`);
    expect(problems).toEqual([]);
    await page.close();

    // A browser that prefers Turkish (German first, which the portal does not speak) signs in and reads it in Turkish.
    const turkish = await chromium.browser().newPage();
    await turkish.addInitScript({
      content: 'Object.defineProperty(navigator, "languages", { get: () => ["de-DE", "tr-TR", "en-US"] });',
    });
    await turkish.goto(pageUrl);
    await turkish.getByLabel("Kullanıcı adı").fill(member.username);
    await turkish.getByLabel("Parola").fill(member.password);
    await turkish.getByRole("button", { name: "Oturum aç" }).click();
    await turkish.getByRole("heading", { name: "Uygulamalar", exact: true }).waitFor();
    await expect.poll(() => usage(turkish).innerText()).toBe(`Uygulamalar: 3 / ${APPS_PER_ORGANIZATION}`);
    expect(await inPage(turkish, "document.documentElement.lang")).toBe("tr");
    await turkish.close();
  }, 60_000);
});
