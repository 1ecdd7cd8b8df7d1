/**
 * A day's work by keyboard in a real browser: 1-9 pick a rejection reason in the order the form
 * shows them, Enter decides, Esc leaves the form, Enter in the note decides and Shift+Enter
 * breaks its line; after a decision the next item opens, claimed, unless the reviewer chose (in
 * this browser) to return to the queue; the queue lists apart, and never preselects, what another
 * reviewer holds.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { StaffVerification } from "#shared/domain/responses/review";
import type { VerificationResource } from "#shared/domain/responses/verification";
import { REJECTION_CODES } from "../../web/backoffice/order.ts";
import type { StaffUser } from "../support/api.ts";
import { useChromium } from "../support/chromium.ts";
import { expectVerification, processedDocument } from "../support/client.ts";
import { signedInConsole } from "../support/console-page.ts";
import { useApiFixture } from "../support/fixture.ts";
import { until } from "../support/until.ts";

const fx = useApiFixture({ pipeline: true, issuer: { settings: { ISSUER_RETRY_WINDOW_S: "2" } } });

let reviewer: StaffUser;
let otherReviewer: StaffUser;
/** Oldest first: the first held by another reviewer, the rest free. */
let waiting: VerificationResource[];
let consoleUrl: string;

beforeAll(async () => {
  [reviewer, otherReviewer] = await Promise.all([fx.api.staffUser(["reviewers"]), fx.api.staffUser(["reviewers"])]);
  waiting = [];
  for (let count = 0; count < 5; count += 1) {
    const inReview = await processedDocument(fx.customer, "gsb-issuer-unavailable.pdf", "GSB_KYK_DORM", {
      status: "in_review",
      reason_code: "issuer_unavailable",
    });
    waiting.push(inReview);
    // The queue orders by the second each went to review: the next goes in a later second, so "oldest" is this order.
    const second = Math.floor(Date.parse(inReview.review?.required_at ?? "") / 1000);
    await until(
      () => Math.floor(Date.now() / 1000),
      (now) => now > second,
    );
  }
  consoleUrl = `${fx.api.backofficeUrl}/backoffice/`;
  const claimed = await fetch(`${consoleUrl}v1/reviews/${waiting[0]?.verification_id}/claim`, {
    method: "POST",
    headers: { Authorization: `Bearer ${otherReviewer.accessToken}`, Accept: "application/json" },
  });
  expect(claimed.status).toBe(200);
}, 90_000);

/** The verification as staff read it: with the decision's note. */
async function staffRead(id: string): Promise<StaffVerification> {
  const response = await fetch(`${consoleUrl}v1/verifications/${id}`, {
    headers: { Authorization: `Bearer ${reviewer.accessToken}`, Accept: "application/json" },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as StaffVerification;
}

const idOf = (index: number) => {
  const found = waiting[index];
  if (!found) throw new Error(`Nothing waits at ${index}`);
  return found.verification_id;
};

describe("a day's work by keyboard in headless chromium", () => {
  const chromium = useChromium();
  const LOADED = { timeout: 30_000 };

  async function signedIn(): Promise<{ page: Page; problems: string[] }> {
    const signed = await signedInConsole(chromium.browser(), consoleUrl, reviewer, {
      size: { width: 1280, height: 800 },
    });
    await signed.page.locator("table.queue tbody tr").first().waitFor(LOADED);
    return signed;
  }

  /** Opens the item `id` by its address and waits until it is read. */
  async function openItem(page: Page, id: string): Promise<void> {
    await page.evaluate(`location.hash = ${JSON.stringify(`#/reviews/${id}`)}`);
    await page.locator("#item-title").getByText(id).waitFor();
    await expect.poll(() => page.locator("article.item[aria-busy=false]").count(), LOADED).toBe(1);
  }

  const heading = (page: Page) => page.locator("#item-title").innerText();
  const claimStatus = (page: Page) => page.locator("#claim-status").innerText();
  const focusedId = (page: Page) => page.evaluate<string>('document.activeElement?.id ?? ""');

  it("lists apart what another reviewer holds, never preselects it, and lists the shortcuts", async () => {
    const { page, problems } = await signedIn();
    const [held, oldestFree] = [idOf(0), idOf(1)];
    await expect.poll(() => page.locator("table.queue tbody tr.selected").innerText(), LOADED).toContain(oldestFree);
    // The oldest of all is held by someone else: below the others, under its title.
    const firstRows = page.locator("table.queue tbody:not(.held) tr");
    expect(await firstRows.first().innerText()).toContain(oldestFree);
    expect(await firstRows.allInnerTexts()).not.toContainEqual(expect.stringContaining(held));
    const heldRows = page.locator("table.queue tbody.held tr");
    expect(await heldRows.first().innerText()).toBe("Held by other reviewers");
    expect(await heldRows.nth(1).innerText()).toContain(held);
    expect(await heldRows.nth(1).innerText()).toContain(`${otherReviewer.username} until`);
    // Enter opens the preselected one: the oldest free item.
    await page.keyboard.press("Enter");
    await expect.poll(() => heading(page)).toBe(oldestFree);

    await page.keyboard.press("?");
    const shortcuts = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await shortcuts.waitFor();
    const listed = await shortcuts.innerText();
    expect(listed).toMatch(/1\s*–\s*9\s+Choose rejected with the reason of that number/);
    expect(listed).toMatch(/Enter\s+Record the decision/);
    expect(listed).toMatch(/Shift\s*\+\s*Enter\s+A new line in the note/);
    await page.keyboard.press("Escape");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("picks a reason by its digit, in the order shown, and decides on Enter; the next item opens, claimed", async () => {
    const { page, problems } = await signedIn();
    const id = idOf(1);
    await openItem(page, id);
    const options = await page.locator("#reason-code option").allInnerTexts();
    expect(options.slice(1, 4)).toEqual([
      expect.stringMatching(/^1 · /),
      expect.stringMatching(/^2 · /),
      expect.stringMatching(/^3 · /),
    ]);
    // A photo's commonest answer has its own reason and digit: send the e-Devlet PDF.
    expect(REJECTION_CODES.indexOf("original_pdf_required")).toBe(4);
    expect(options[5]).toBe("5 · Send the original PDF from e-Devlet");
    // 3 claims the item (nobody holds it) and chooses rejected for the third reason shown.
    await page.keyboard.press("3");
    await expect.poll(() => page.locator("#reason-code").inputValue(), LOADED).toBe(REJECTION_CODES[2]);
    expect(await page.getByLabel("Rejected").isChecked()).toBe(true);
    expect(await claimStatus(page)).toMatch(/^You hold the claim until/);
    await page.keyboard.press("Enter");

    await expect.poll(() => page.locator("#status").innerText(), LOADED).toBe(`Decision recorded for ${id}: Rejected.`);
    // In its place the oldest item nobody else holds, claimed for the reviewer.
    await expect.poll(() => heading(page), LOADED).toBe(idOf(2));
    await expect.poll(() => claimStatus(page), LOADED).toMatch(/^You hold the claim until/);
    expect(expectVerification(await fx.customer.get(id))).toMatchObject({
      status: "completed",
      result: "rejected",
      reason_code: REJECTION_CODES[2],
    });
    // Back still goes to the queue.
    await page.keyboard.press("Escape");
    await page.getByRole("heading", { name: "Review queue" }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("says a rejection needs a reason instead of the browser's bubble, and Esc leaves the form, then the item", async () => {
    const { page, problems } = await signedIn();
    const id = idOf(2);
    await openItem(page, id);
    await page.keyboard.press("r");
    await expect.poll(() => page.getByLabel("Rejected").isChecked(), LOADED).toBe(true);
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.locator("#item-alert").innerText())
      .toBe("Choose a rejection reason: keys 1 to 9 pick one.");
    expect(await focusedId(page)).toBe("reason-code");
    expect(await heading(page)).toBe(id);

    // Esc in the form hands the keys back to the item: focus leaves the form, the item stays.
    await page.getByLabel("Note (optional)").focus();
    await page.keyboard.press("Escape");
    expect(await focusedId(page)).toBe("item-title");
    expect(await heading(page)).toBe(id);
    // The digits work again at once (they move focus to the choice); out of the form again, Esc goes back to the queue.
    await page.keyboard.press("1");
    await expect.poll(() => page.locator("#reason-code").inputValue()).toBe(REJECTION_CODES[0]);
    expect(await focusedId(page)).toBe("result-rejected");
    await page.keyboard.press("Escape");
    expect(await focusedId(page)).toBe("item-title");
    await page.keyboard.press("Escape");
    await page.getByRole("heading", { name: "Review queue" }).waitFor();
    expect(expectVerification(await fx.customer.get(id)).status).toBe("in_review");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("takes Enter in the note as the decision, and Shift+Enter as a new line", async () => {
    const { page, problems } = await signedIn();
    const id = idOf(3);
    await openItem(page, id);
    await page.keyboard.press("v");
    await expect.poll(() => page.getByLabel("Verified").isChecked(), LOADED).toBe(true);
    const note = page.getByLabel("Note (optional)");
    await note.focus();
    await page.keyboard.type("Seal checked");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("against the template");
    expect(await note.inputValue()).toBe("Seal checked\nagainst the template");
    await page.keyboard.press("Enter");

    await expect.poll(() => page.locator("#status").innerText(), LOADED).toBe(`Decision recorded for ${id}: Verified.`);
    await expect.poll(() => heading(page), LOADED).not.toBe(id);
    const decided = await staffRead(id);
    expect(decided.result).toBe("verified");
    expect(decided.decision?.note).toBe("Seal checked\nagainst the template");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("returns to the queue after a decision when the reviewer chose so, and keeps that choice in the browser", async () => {
    const { page, problems } = await signedIn();
    const id = idOf(4);
    await openItem(page, id);
    const setting = page.getByLabel(/^Back to the queue after each decision/);
    expect(await setting.isChecked()).toBe(false);
    await setting.check();
    expect(await page.evaluate<string | null>('localStorage.getItem("backoffice.after-decision")')).toBe("queue");
    await page.keyboard.press("5");
    await expect.poll(() => page.locator("#reason-code").inputValue(), LOADED).toBe("original_pdf_required");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Review queue" }).waitFor(LOADED);
    await expect.poll(() => page.locator("#status").innerText()).toBe(`Decision recorded for ${id}: Rejected.`);
    // The customer is told what to do: send the original PDF from e-Devlet.
    const told = expectVerification(await fx.customer.get(id));
    expect(told).toMatchObject({ status: "completed", result: "rejected", reason_code: "original_pdf_required" });
    expect(told.message).toMatch(/^A reviewer asked for the original PDF from e-Devlet; /);

    // A new tab in the same browser keeps the choice; unchecking it forgets it.
    const again = await signedIn();
    await openItem(again.page, idOf(2));
    const kept = again.page.getByLabel(/^Back to the queue after each decision/);
    expect(await kept.isChecked()).toBe(true);
    await kept.uncheck();
    expect(await again.page.evaluate<string | null>('localStorage.getItem("backoffice.after-decision")')).toBeNull();
    expect([...problems, ...again.problems]).toEqual([]);
    await Promise.all([page.close(), again.page.close()]);
  }, 90_000);
});
