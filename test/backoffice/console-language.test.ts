/**
 * The review console in Turkish and English, on one clock: a browser in Istanbul with an en-US
 * locale sees every time (the API's problem details included) in Istanbul's time, 24-hour. The
 * claim on screen: the form closed until the reviewer holds it, v claiming first, a countdown that
 * warns a minute before the lease lapses and closes the form when it does (the browser's clock is
 * moved forward for that), feedback beside the form.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { VerificationResource } from "#shared/domain/responses/verification";
import type { StaffUser } from "../support/api.ts";
import { apiSentencesIn } from "../support/api-vocabulary.ts";
import { pageClock, TIME_ZONE, useChromium } from "../support/chromium.ts";
import { processedDocument } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture({ pipeline: true, issuer: { settings: { ISSUER_RETRY_WINDOW_S: "2" } } });

let reviewer: StaffUser;
let otherReviewer: StaffUser;
let free: VerificationResource;
let taken: VerificationResource;
let consoleUrl: string;

beforeAll(async () => {
  [reviewer, otherReviewer] = await Promise.all([fx.api.staffUser(["reviewers"]), fx.api.staffUser(["reviewers"])]);
  free = await processedDocument(fx.customer, "gsb-fields-incomplete.pdf", "GSB_KYK_DORM", {
    status: "in_review",
    reason_code: "fields_incomplete",
  });
  taken = await processedDocument(fx.customer, "gsb-issuer-unavailable.pdf", "GSB_KYK_DORM", {
    status: "in_review",
    reason_code: "issuer_unavailable",
  });
  consoleUrl = `${fx.api.backofficeUrl}/backoffice/`;
}, 60_000);

describe("the console in both languages, on one clock", () => {
  const chromium = useChromium({ locale: "en-US", timezoneId: TIME_ZONE });

  async function openConsole(): Promise<{ page: Page; problems: string[] }> {
    const page = await chromium.browser().newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    // The page's clock, so a test can move it past a claim's lease.
    await page.clock.install();
    expect((await page.goto(consoleUrl))?.status()).toBe(200);
    return { page, problems };
  }

  /** Signs in on the console's first screen, which is in Turkish like the rest of it. */
  async function signIn(page: Page, user: StaffUser, queueTitle: string): Promise<void> {
    await page.getByRole("heading", { name: "Oturum açın" }).waitFor();
    await page.getByLabel("Kullanıcı adı").fill(user.username);
    await page.getByLabel("Parola").fill(user.password);
    await page.getByRole("button", { name: "Oturum aç" }).click();
    await page.getByRole("heading", { name: queueTitle }).waitFor();
  }

  const inPage = <T>(page: Page, expression: string) => page.evaluate<T>(expression);
  const rowOf = (page: Page, id: string) =>
    page.locator("table.queue tbody tr", { has: page.getByRole("link", { name: id, exact: true }) });
  const claimStatus = (page: Page) => page.locator("#claim-status");
  const itemStatus = (page: Page) => page.locator("#item-status[role=status]");
  const itemAlert = (page: Page) => page.locator("#item-alert[role=alert]");

  it("opens in Turkish with every code by its label, claims on v, counts the claim down and closes the form when it lapses", async () => {
    const { page, problems } = await openConsole();
    expect(await inPage(page, "document.documentElement.lang")).toBe("tr");
    expect(await page.title()).toBe("İnceleme konsolu");
    // The sign-in follows a switch of language in place, keeping what was typed.
    await page.getByLabel("Kullanıcı adı").fill(reviewer.username);
    await page.getByLabel("Dil").selectOption("en");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.getByLabel("Username").inputValue()).toBe(reviewer.username);
    await page.getByLabel("Language").selectOption("tr");
    await signIn(page, reviewer, "İnceleme kuyruğu");

    const row = rowOf(page, free.verification_id);
    await expect.poll(() => row.innerText()).toContain("Alanlar eksik");
    const cells = await row.innerText();
    expect(cells).toContain("GSB KYK yurt belgesi");
    expect(cells).toContain("Boşta");
    // The time left before the 72-hour review deadline, in Turkish units.
    expect(cells).toMatch(/\b2 g 23 sa\b/);
    expect(cells).not.toMatch(/fields_incomplete|GSB_KYK_DORM/);
    expect(apiSentencesIn(await page.locator("main").innerText())).toEqual([]);
    expect(await page.locator("table.queue thead").innerText()).toMatch(/Kalan süre/);

    await page.getByRole("link", { name: free.verification_id, exact: true }).click();
    await page.getByRole("heading", { name: free.verification_id }).waitFor();
    await expect.poll(() => claimStatus(page).innerText()).toBe("Kaydı kimse üstlenmedi: karar vermek için üstlenin.");
    await page.locator("details.about > summary").click();
    const item = await page.locator("article.item").innerText();
    expect(item).toMatch(/Durum\s+İncelemede/);
    // The app by its name, as the queue names it, with its id.
    const appName = (await fx.api.apps.getApp(fx.app.app_id))?.name ?? "";
    expect(appName).not.toBe("");
    const shown = `${appName} (${fx.app.app_id})`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(item).toMatch(new RegExp(`Uygulama\\s+${shown}`));
    expect(item).toMatch(/Kurum kopyasıyla eşleşiyor\s+Geçti/);
    expect(item).toMatch(/Alanlar okundu\s+Geçmedi\s+Eksik ya da hatalı: \S/);
    // Every check's detail in Turkish: no sentence of the API's vocabulary on the screen.
    expect(apiSentencesIn(item)).toEqual([]);
    // The fields read in the order the certificate prints them, a date as printed (ISO on hover).
    expect((await page.locator("dl.fields dt").allInnerTexts()).slice(0, 2)).toEqual(["Adı", "Soyadı"]);
    const born = page.locator("dl.fields time").first();
    expect(await born.innerText()).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(await born.getAttribute("title")).toBe(await born.getAttribute("datetime"));
    expect(await born.getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The form stays closed until the reviewer holds the claim.
    expect(await page.getByRole("button", { name: "Kararı kaydet" }).isDisabled()).toBe(true);
    expect(await page.getByLabel("Doğrulandı").isDisabled()).toBe(true);

    // v claims first when nobody holds the claim, then chooses.
    await page.keyboard.press("v");
    await expect.poll(() => page.getByLabel("Doğrulandı").isChecked()).toBe(true);
    const expiresAt = (await claimStatus(page).locator("time").getAttribute("datetime")) ?? "";
    expect(await claimStatus(page).innerText()).toBe(
      `Kaydı ${await pageClock(page, expiresAt)} saatine kadar siz üstlendiniz.`,
    );
    await expect
      .poll(() => itemStatus(page).innerText())
      .toBe(`Kaydı ${await pageClock(page, expiresAt)} saatine kadar siz üstlendiniz.`);
    expect(await page.getByRole("button", { name: "Kararı kaydet" }).isDisabled()).toBe(false);
    expect(await page.locator("#claim-left").innerText()).toMatch(/^Üstlenmenizin kalan süresi: 1[45]:\d{2}$/);

    // English, on the same screen and the same claim: still 24-hour on an en-US browser.
    await page.getByLabel("Dil", { exact: true }).selectOption("en");
    await expect.poll(() => inPage(page, "document.documentElement.lang")).toBe("en");
    await expect
      .poll(() => claimStatus(page).innerText())
      .toBe(`You hold the claim until ${await pageClock(page, expiresAt)}.`);
    expect(await page.locator("article.item").innerText()).toMatch(/Fields extracted\s+Failed/);
    expect(await page.getByRole("button", { name: "Record decision" }).isDisabled()).toBe(false);
    expect(await page.locator("#claim-left").innerText()).toMatch(/^Time left on your claim: 1[45]:\d{2}$/);

    // A minute before the lease lapses the page warns beside the form; when it lapses it says so and closes the form.
    const left = Date.parse(expiresAt) - (await inPage<number>(page, "Date.now()"));
    await page.clock.fastForward(left - 50_000);
    await expect
      .poll(() => itemAlert(page).innerText())
      .toBe("Your claim lapses in under a minute. Renew it (n) to keep deciding.");
    expect(await page.getByRole("button", { name: "Record decision" }).isDisabled()).toBe(false);
    await page.clock.fastForward(51_000);
    const lapsed = `Your claim lapsed at ${await pageClock(page, expiresAt)}: claim the item again to decide.`;
    await expect.poll(() => claimStatus(page).innerText()).toBe(lapsed);
    await expect.poll(() => itemAlert(page).innerText()).toBe(lapsed);
    expect(await page.getByRole("button", { name: "Record decision" }).isDisabled()).toBe(true);
    expect(await page.getByLabel("Verified").isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: /^Claim/ }).innerText()).toMatch(/^Claim/);

    // Back in Turkish, the queue's words follow.
    await page.getByLabel("Language", { exact: true }).selectOption("tr");
    await page.keyboard.press("Escape");
    await page.getByRole("heading", { name: "İnceleme kuyruğu" }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("shows a refusal's time in the browser's clock, beside the form, in both languages", async () => {
    const response = await fetch(`${consoleUrl}v1/reviews/${taken.verification_id}/claim`, {
      method: "POST",
      headers: { Authorization: `Bearer ${otherReviewer.accessToken}`, Accept: "application/json" },
    });
    expect(response.status).toBe(200);
    const { expires_at: until } = (await response.json()) as { expires_at: string };

    const { page, problems } = await openConsole();
    await signIn(page, reviewer, "İnceleme kuyruğu");
    await expect
      .poll(() => rowOf(page, taken.verification_id).innerText())
      .toContain(`${otherReviewer.username}, şu saate kadar: ${await pageClock(page, until)}`);
    await page.getByRole("link", { name: taken.verification_id, exact: true }).click();
    await page.getByRole("heading", { name: taken.verification_id }).waitFor();
    await expect
      .poll(() => claimStatus(page).innerText())
      .toBe(`Kaydı ${await pageClock(page, until)} saatine kadar ${otherReviewer.username} üstlendi.`);

    // The refusal in the reviewer's words, from who holds the claim and until when: no API sentence.
    await page.keyboard.press("c");
    await expect
      .poll(() => itemAlert(page).innerText())
      .toBe(`Kaydı ${await pageClock(page, until)} saatine kadar ${otherReviewer.username} üstlendi.`);
    // The top banner is for the queue; the item speaks beside its form.
    expect(await page.locator("#alert").innerText()).toBe("");

    await page.getByLabel("Dil", { exact: true }).selectOption("en");
    await expect
      .poll(() => claimStatus(page).innerText())
      .toBe(`${otherReviewer.username} holds the claim until ${await pageClock(page, until)}.`);
    await page.keyboard.press("r");
    await expect
      .poll(() => itemAlert(page).innerText())
      .toBe(`${otherReviewer.username} holds the claim until ${await pageClock(page, until)}.`);
    expect(await page.getByLabel("Rejected").isChecked()).toBe(false);
    expect(await inPage(page, "JSON.stringify(document.body.innerText.match(/\\d{4}-\\d{2}-\\d{2}T/))")).toBe("null");
    expect(await inPage(page, "/\\b(AM|PM)\\b/.test(document.body.innerText)")).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
