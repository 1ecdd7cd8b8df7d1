/**
 * The item screen's layout in a real browser: at 1280 x 800 and 1440 x 900 the claim, its
 * countdown, the decision form and a refusal stand beside the copies without scrolling, the
 * item's details folded to one line; on a phone (390 x 844) the decision is a bar along the
 * window's bottom. Each box is measured against the window; axe-core reads the screen in Turkish
 * and English at desktop width and a phone's.
 */
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { VerificationResource } from "#shared/domain/responses/verification";
import type { StaffUser } from "../support/api.ts";
import { expectAccessible, PHONE } from "../support/axe.ts";
import { useChromium } from "../support/chromium.ts";
import { processedDocument } from "../support/client.ts";
import { signedInConsole } from "../support/console-page.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture({ pipeline: true, issuer: { settings: { ISSUER_RETRY_WINDOW_S: "2" } } });

let reviewer: StaffUser;
/** Both copies, free to claim. */
let free: VerificationResource;
/** Held by another reviewer. */
let taken: VerificationResource;
let consoleUrl: string;

beforeAll(async () => {
  const [mine, other] = await Promise.all([fx.api.staffUser(["reviewers"]), fx.api.staffUser(["reviewers"])]);
  reviewer = mine;
  free = await processedDocument(fx.customer, "gsb-fields-incomplete.pdf", "GSB_KYK_DORM", {
    status: "in_review",
    reason_code: "fields_incomplete",
  });
  taken = await processedDocument(fx.customer, "gsb-issuer-unavailable.pdf", "GSB_KYK_DORM", {
    status: "in_review",
    reason_code: "issuer_unavailable",
  });
  consoleUrl = `${fx.api.backofficeUrl}/backoffice/`;
  const claimed = await fetch(`${consoleUrl}v1/reviews/${taken.verification_id}/claim`, {
    method: "POST",
    headers: { Authorization: `Bearer ${other.accessToken}`, Accept: "application/json" },
  });
  expect(claimed.status).toBe(200);
}, 60_000);

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

describe("the item screen's layout in headless chromium", () => {
  const chromium = useChromium();
  const LOADED = { timeout: 30_000 };

  const signedIn = (size: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> =>
    signedInConsole(chromium.browser(), consoleUrl, reviewer, { size });

  async function openItem(page: Page, id: string): Promise<void> {
    await page.evaluate(`location.hash = ${JSON.stringify(`#/reviews/${id}`)}`);
    await page.locator("#item-title").getByText(id).waitFor();
    await expect.poll(() => page.locator("article.item[aria-busy=false]").count(), LOADED).toBe(1);
  }

  const box = async (locator: Locator): Promise<Box> => {
    const found = await locator.boundingBox();
    if (!found) throw new Error("Not shown");
    return found;
  };

  /** Whether `inner` lies wholly inside the window, give or take a pixel of rounding. */
  const inWindow = (inner: Box, size: { width: number; height: number }) =>
    inner.x >= -1 &&
    inner.y >= -1 &&
    inner.x + inner.width <= size.width + 1 &&
    inner.y + inner.height <= size.height + 1;

  const scrollY = (page: Page) => page.evaluate<number>("window.scrollY");

  for (const size of [
    { width: 1280, height: 800 },
    { width: 1440, height: 900 },
  ]) {
    it(`at ${size.width} x ${size.height}: the claim, its countdown, the form and a refusal beside the copies, the details on one line`, async () => {
      const { page, problems } = await signedIn(size);
      await openItem(page, free.verification_id);
      await page.keyboard.press("c");
      await expect.poll(() => page.locator("#claim-left").innerText(), LOADED).toMatch(/^Time left on your claim/);
      await page.locator('.viewer-pane[data-copy="upload"] canvas').waitFor(LOADED);

      const panes = await box(page.locator('.viewer-pane[data-copy="upload"]'));
      for (const selector of [
        "#claim-status",
        "#claim-left",
        "#item-status",
        "form.decision",
        "form.decision button[type=submit]",
      ]) {
        const shown = await box(page.locator(selector));
        expect(inWindow(shown, size), `${selector} at ${JSON.stringify(shown)}`).toBe(true);
        // Beside the copies, not below them.
        expect(shown.x, selector).toBeGreaterThanOrEqual(panes.x + panes.width);
      }
      // The copies fill the rest of the window: they start near the top and end inside it.
      expect(panes.y).toBeLessThan(size.height / 3);
      expect(panes.y + panes.height).toBeLessThanOrEqual(size.height);
      expect(panes.height).toBeGreaterThan(size.height / 2);
      expect(await scrollY(page)).toBe(0);

      // The details: one line until opened, then every fact, field and check.
      const summary = page.locator("details.about > summary");
      expect((await box(summary)).height).toBeLessThan(40);
      expect(await page.locator("details.about").innerText()).not.toContain("Fields extracted");
      await summary.click();
      await expect.poll(() => page.locator("details.about").innerText()).toMatch(/Fields extracted\s+Failed/);
      await summary.click();
      await expect.poll(() => page.locator("details.about").innerText()).not.toContain("Fields extracted");

      // Another reviewer's claim: the refusal shows beside the copies too.
      await openItem(page, taken.verification_id);
      await page.keyboard.press("c");
      await expect.poll(() => page.locator("#item-alert").innerText(), LOADED).toContain("holds the claim until");
      const refusal = await box(page.locator("#item-alert"));
      expect(inWindow(refusal, size), `the refusal at ${JSON.stringify(refusal)}`).toBe(true);
      expect(inWindow(await box(page.locator("#claim-status")), size)).toBe(true);
      expect(await scrollY(page)).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    }, 90_000);
  }

  it("on a phone: the decision is a bar along the window's bottom, the claim and its countdown in it", async () => {
    const { page, problems } = await signedIn(PHONE);
    await openItem(page, free.verification_id);
    await page.keyboard.press("c");
    await expect.poll(() => page.locator("#claim-left").innerText(), LOADED).toMatch(/^Time left on your claim/);
    const bar = await box(page.locator(".decision-panel"));
    expect(inWindow(bar, PHONE)).toBe(true);
    expect(bar.y + bar.height).toBeGreaterThanOrEqual(PHONE.height - 1);
    expect(bar.width).toBeGreaterThanOrEqual(PHONE.width - 1);
    expect(bar.height).toBeLessThanOrEqual(PHONE.height / 2);
    for (const selector of ["#claim-status", "#claim-left"]) {
      expect(inWindow(await box(page.locator(selector)), PHONE), selector).toBe(true);
    }
    // It stays there as the page scrolls.
    await page.evaluate("window.scrollTo(0, document.body.scrollHeight)");
    await expect.poll(() => scrollY(page)).toBeGreaterThan(0);
    expect(await box(page.locator(".decision-panel"))).toEqual(bar);
    // The form is in the bar: its button is reached by scrolling the bar, not the page.
    const button = page.locator("form.decision button[type=submit]");
    await button.scrollIntoViewIfNeeded();
    expect(inWindow(await box(button), PHONE)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("passes axe-core with the form open, in Turkish and English, at desktop width and a phone's", async () => {
    const { page, problems } = await signedIn({ width: 1280, height: 800 });
    await openItem(page, free.verification_id);
    await page.keyboard.press("c");
    await expect.poll(() => page.locator("input[type=radio]").first().isDisabled(), LOADED).toBe(false);
    for (const language of ["tr", "en"]) {
      await page.locator("#language").selectOption(language);
      await page.locator(`html[lang=${language}]`).waitFor();
      await expect.poll(() => page.locator("[aria-busy=true]").count(), LOADED).toBe(0);
      await expectAccessible(page, `item (${language})`);
      await page.locator("details.about > summary").click();
      await expectAccessible(page, `item with its details open (${language})`);
    }
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
