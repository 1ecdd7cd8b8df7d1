/**
 * The portal in Turkish and English, in a real browser (chromium through playwright-core): a
 * browser whose locale is tr-TR opens it in Turkish, one whose locale is en-US in English, and the
 * header's switch redraws the screen on view in the other, the sign-in at the step it is at. Every
 * screen passes axe-core in both languages at 1280 px and at a phone's 390 px, and shows each code
 * (statuses, results, reasons, checks, event types and states, delivery outcomes, roles, key
 * states, environments, refusals) by its label, never as the code; a verification's timeline too.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { AssociateSoftwareTokenCommand, VerifySoftwareTokenCommand } from "@aws-sdk/client-cognito-identity-provider";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { NewApp } from "#shared/use-cases/accounts/apps";
import { totpCode } from "../../local/identity/totp.ts";
import type { PortalUser } from "../support/api.ts";
import { apiSentencesIn } from "../support/api-vocabulary.ts";
import { expectAccessible } from "../support/axe.ts";
import { useChromium } from "../support/chromium.ts";
import { Customer, callAs, expectVerification, upload, validBody } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture({ pipeline: true, receiver: true });
// The active student's certificate saved again by another writer: verified, noting not_original_file.
const certificate = new Uint8Array(
  readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active-resaved.pdf")),
);
const DESKTOP = { width: 1280, height: 900 } as const;

let owner: PortalUser;
let colleague: PortalUser;
let app: NewApp;
let verifiedId: string;
let waitingId: string;
let pageUrl: string;

beforeAll(async () => {
  owner = await fx.api.portalUser("owner");
  colleague = await fx.api.portalUser("developer", owner.organizationId);
  app = await fx.api.organizationApp(owner.organizationId, fx.receiver.url);
  pageUrl = `${fx.api.portalUrl}/portal/`;
  const customer = new Customer(fx.api.baseUrl, app.api_key);
  // One verified (counted in usage, with its checks), one still awaiting its upload.
  const verified = await customer.created({
    external_reference_id: `lang-${crypto.randomUUID().slice(0, 8)}`,
    file_size_bytes: certificate.length,
    process_type: "sync",
  });
  expect((await upload(verified, certificate)).status).toBe(200);
  expect(expectVerification(await customer.confirm(verified.verification_id))).toMatchObject({
    status: "completed",
    result: "verified",
  });
  verifiedId = verified.verification_id;
  // Its completed event delivered, for its timeline.
  await fx.receiver.waitForBody([verifiedId, "verification.completed"]);
  waitingId = (await customer.created({ external_reference_id: "lang-waiting" })).verification_id;
  // A refused request, for the request log: its code and its field's code by their labels.
  expect((await customer.create({ ...validBody(), file_size_bytes: 0 })).status).toBe(422);
  // A delivery and an event on the Webhooks screen.
  const tested = await callAs(
    fx.api.portalUrl,
    owner.accessToken,
    "POST",
    `/portal/v1/apps/${app.app_id}/webhook/test`,
  );
  expect(tested.status).toBe(200);
}, 60_000);

/** Runs `expression` in the page (a string: the tests are type-checked without the DOM's types). */
const inPage = <T>(page: Page, expression: string) => page.evaluate<T>(expression);
const status = (page: Page) => page.locator("#status[role=status]");
const alert = (page: Page) => page.locator("#alert[role=alert]");

/**
 * Codes the screen shows as codes: words joined by `_`, event types, and, in Turkish, the API's
 * one-word codes too (in English they are words of its sentences: "Verification completed").
 * Left out: what is shown as written on purpose (ids and URLs in `code`, JSON in `pre`, the API's
 * own English sentences marked `lang="en"`, and hints that name a field of the API).
 */
async function codesOnScreen(page: Page, language: "tr" | "en"): Promise<string[]> {
  const shown = await inPage<string>(
    page,
    `(() => {
      const view = document.getElementById("view").cloneNode(true);
      for (const kept of view.querySelectorAll("code, pre, [lang=en], .hint")) kept.remove();
      return view.textContent;
    })()`,
  );
  const joined = /\b[a-z]+(?:_[a-z]+)+\b|\b(?:verification|webhook)\.[a-z_]+\b/g;
  const words =
    /\b(?:awaiting|processing|completed|verified|rejected|inconclusive|passed|skipped|delivered|pending|parked|owner|developer|viewer|active|expiring|revoked|sandbox|production)\b/gi;
  return [...shown.matchAll(joined), ...(language === "tr" ? shown.matchAll(words) : [])].map(([code]) => code);
}

async function choose(page: Page, language: "tr" | "en"): Promise<void> {
  await page.locator("#language").selectOption(language);
  await page.locator(`html[lang=${language}]`).waitFor();
}

/** The portal's screens, each with what shows it has loaded and a label it must show in each language. */
const SCREENS = [
  { name: "apps", ready: "article table tbody tr", tr: "Etkin", en: "Active" },
  { name: "webhooks", ready: "#events-title ~ div table tbody tr", tr: "Test olayı", en: "Test event" },
  { name: "requests", ready: "#requests-list-title ~ div table tbody tr", tr: "çok küçük", en: "too small" },
  { name: "verifications", ready: "#lookup tbody tr", tr: "Yükleme bekleniyor", en: "Awaiting upload" },
  { name: "usage", ready: "figure svg rect.bar", tr: "Doğrulandı", en: "Verified" },
  { name: "people", ready: "table tbody tr", tr: "Geliştirici", en: "Developer" },
] as const;

describe("a browser whose locale is tr-TR", () => {
  const chromium = useChromium({ locale: "tr-TR" });

  it("opens the portal in Turkish, switches the sign-in keeping what was typed, and passes axe-core on every screen in both languages", async () => {
    const page = await chromium.browser().newPage();
    await page.setViewportSize(DESKTOP);
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(pageUrl);
    await page.getByRole("heading", { name: "Oturum açın" }).waitFor();
    expect(await inPage(page, "document.documentElement.lang")).toBe("tr");
    expect(await page.title()).toBe("Müşteri portalı");
    expect(await page.locator("#language").inputValue()).toBe("tr");
    await expectAccessible(page, "sign-in (tr)");

    // The switch on the sign-in screen: the same step in English, what was typed still there.
    await page.getByLabel("Kullanıcı adı").fill(owner.username);
    await page.getByLabel("Dil", { exact: true }).selectOption("en");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.getByLabel("Username").inputValue()).toBe(owner.username);
    expect(await page.title()).toBe("Customer portal");
    await expectAccessible(page, "sign-in (en)");
    await page.getByLabel("Language", { exact: true }).selectOption("tr");
    await page.getByLabel("Parola").fill("not-the-password");
    await page.getByRole("button", { name: "Oturum aç" }).click();
    await expect.poll(() => alert(page).innerText()).toBe("Kullanıcı adı veya parola yanlış.");
    await page.getByLabel("Parola").fill(owner.password);
    await page.getByRole("button", { name: "Oturum aç" }).click();
    await page.getByRole("heading", { name: "Uygulamalar", exact: true }).waitFor();
    await expect.poll(() => status(page).innerText()).toBe(`${owner.username} olarak oturum açıldı.`);
    // The role and the environment by their labels.
    expect(await page.locator("#who").innerText()).toMatch(/ · Sahip · .+ \(Test ortamı\)$/);

    for (const screen of SCREENS) {
      await inPage(page, `location.hash = "#/${screen.name}"`);
      await page.locator(`#${screen.name}-title`).waitFor();
      await page.locator(screen.ready).first().waitFor();
      await expect.poll(() => page.locator("[aria-busy=true]").count()).toBe(0);
      if (screen.name === "verifications") {
        // The list says what each came to, not only where it stands.
        expect(await page.locator("#lookup tbody tr", { hasText: verifiedId }).innerText()).toContain(
          "Tamamlandı · Doğrulandı",
        );
        await page.locator("#lookup tbody tr", { hasText: verifiedId }).getByRole("button").click();
        const detail = page.locator("#verification-detail");
        await expect.poll(() => detail.innerText()).toMatch(/Durum\s+Tamamlandı · Doğrulandı/);
        expect(await detail.innerText()).toMatch(/Neden\s+Doğrulandı/);
        expect(await detail.innerText()).toMatch(/Karşılaştırmanın notları\s+Özgün dosya değil/);
        expect(await detail.innerText()).toMatch(/Belge türü\s+YÖK öğrenci belgesi/);
        expect(await detail.innerText()).toMatch(/Yükleme var\s+Geçti\s+Belge saklanıyor/);
        expect(await detail.innerText()).toMatch(/Belge, kurumun kopyasıyla aynı içerikte, başka bir dosyada/);
        await expect
          .poll(() => detail.locator("ol.timeline").innerText())
          .toMatch(/Doğrulama tamamlandı · [\s\S]*Deneme 1 · [^·]+ · HTTP 200 · Teslim edildi · \d+ ms/);
        expect(await page.locator("#lookup").innerText()).toContain(waitingId);
      }
      if (screen.name === "webhooks") {
        await page.locator("#events-title ~ div table tbody tr").getByRole("button").first().click();
        await expect.poll(() => page.locator("#event-detail").innerText()).toMatch(/Deneme 1 · .+ · Teslim edildi/);
      }
      await expect.poll(() => page.locator("#view").innerText()).toContain(screen.tr);
      expect(await codesOnScreen(page, "tr"), `${screen.name} (tr)`).toEqual([]);
      // No sentence of the API's vocabulary: the page says it in its own words.
      expect(apiSentencesIn(await page.locator("#view").innerText()), `${screen.name} (tr)`).toEqual([]);
      await expectAccessible(page, `${screen.name} (tr)`);

      await choose(page, "en");
      await page.locator(screen.ready).first().waitFor();
      await expect.poll(() => page.locator("[aria-busy=true]").count()).toBe(0);
      await expect.poll(() => page.locator("#view").innerText()).toContain(screen.en);
      expect(await codesOnScreen(page, "en"), `${screen.name} (en)`).toEqual([]);
      await expectAccessible(page, `${screen.name} (en)`);
      await choose(page, "tr");
    }

    // A refusal in the page's words: its code's label, not the API's English detail.
    await inPage(page, 'location.hash = "#/people"');
    await page.locator("#invite-username").waitFor();
    await page.getByLabel("Kullanıcı adı", { exact: true }).fill(colleague.username);
    await page.getByLabel("E-posta").fill(`${colleague.username}@example.com`);
    await page.getByRole("button", { name: "Davet et" }).click();
    await expect.poll(() => alert(page).innerText()).toBe("Bu kullanıcı adı alınmış");
    expect(problems).toEqual([]);
    await page.close();
  }, 240_000);

  it("takes an invited member's first sign-in in Turkish, the new-password step kept across a switch", async () => {
    const username = `lang-${crypto.randomUUID().slice(0, 8)}`;
    const invited = await callAs(fx.api.portalUrl, owner.accessToken, "POST", "/portal/v1/users", {
      username,
      role: "viewer",
      email: `${username}@example.com`,
    });
    expect(invited.status).toBe(201);
    const temporary = fx.api.identity.invitationOf(username)?.temporaryPassword ?? "";
    expect(temporary).not.toBe("");

    const page = await chromium.browser().newPage();
    await page.setViewportSize(DESKTOP);
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(pageUrl);
    await page.getByLabel("Kullanıcı adı").fill(username);
    await page.getByLabel("Parola").fill(temporary);
    await page.getByRole("button", { name: "Oturum aç" }).click();
    await page.getByRole("heading", { name: "Yeni bir parola belirleyin" }).waitFor();
    await expectAccessible(page, "new password (tr)");
    await page.getByLabel("Yeni parola", { exact: true }).fill("Correct-horse-1");
    await page.getByLabel("Yeni parolayı tekrarlayın").fill("Another-horse-2");
    await page.getByRole("button", { name: "Parolayı belirle" }).click();
    await expect
      .poll(() => alert(page).innerText())
      .toBe("İki parola birbirinden farklı. Aynı parolayı iki kez yazın.");

    // English on the same step: the pool's session is kept, so the new password is still asked for.
    await choose(page, "en");
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    expect(await page.getByLabel("New password", { exact: true }).inputValue()).toBe("Correct-horse-1");
    await page.getByLabel("Repeat the new password").fill("Correct-horse-1");
    await choose(page, "tr");
    await page.getByRole("button", { name: "Parolayı belirle" }).click();
    await page.getByRole("heading", { name: "Uygulamalar", exact: true }).waitFor();
    await expect.poll(() => status(page).innerText()).toContain("Rolünüz izleyici");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
  it("asks a member with an authenticator app for the code in Turkish, in English after a switch, and refuses a wrong one", async () => {
    const member = await fx.api.portalUser("developer", owner.organizationId);
    const { cognito } = fx.api.identity;
    const { SecretCode = "" } = await cognito.send(
      new AssociateSoftwareTokenCommand({ AccessToken: member.accessToken }),
    );
    const verified = await cognito.send(
      new VerifySoftwareTokenCommand({ AccessToken: member.accessToken, UserCode: totpCode(SecretCode, Date.now()) }),
    );
    expect(verified.Status).toBe("SUCCESS");

    const page = await chromium.browser().newPage();
    await page.setViewportSize(DESKTOP);
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(pageUrl);
    await page.getByLabel("Kullanıcı adı").fill(member.username);
    await page.getByLabel("Parola").fill(member.password);
    await page.getByRole("button", { name: "Oturum aç" }).click();
    await page.getByRole("heading", { name: "Kodunuzu girin" }).waitFor();
    await expectAccessible(page, "code (tr)");
    await choose(page, "en");
    await page.getByRole("heading", { name: "Enter your code" }).waitFor();
    await expectAccessible(page, "code (en)");
    await choose(page, "tr");
    await page.getByRole("textbox", { name: "Kod" }).fill(totpCode(SecretCode, Date.now() + 5 * 60_000));
    await page.getByRole("button", { name: "Devam et" }).click();
    await expect
      .poll(() => alert(page).innerText())
      .toBe("Kod doğru değil. Doğrulama uygulamanızın şu an gösterdiği kodu girin.");
    await page.getByRole("textbox", { name: "Kod" }).fill(totpCode(SecretCode, Date.now()));
    await page.getByRole("button", { name: "Devam et" }).click();
    await page.getByRole("heading", { name: "Uygulamalar", exact: true }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});

describe("a browser whose locale is en-US", () => {
  const chromium = useChromium({ locale: "en-US" });

  it("opens the portal in English, and the switch turns the screen on view and its tabs Turkish", async () => {
    const page = await chromium.browser().newPage();
    await page.setViewportSize(DESKTOP);
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(pageUrl);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await inPage(page, "document.documentElement.lang")).toBe("en");
    await page.getByLabel("Username").fill(owner.username);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Apps", exact: true }).waitFor();
    expect(await page.locator("#who").innerText()).toMatch(/ · Owner · .+ \(Sandbox\)$/);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.locator("#deliveries-title ~ div table tbody tr").first().waitFor();
    expect(await page.locator("#deliveries-title ~ div table tbody").innerText()).toMatch(/Test event[\s\S]*Delivered/);

    await page.getByLabel("Language", { exact: true }).selectOption("tr");
    await page.getByRole("heading", { name: "Webhook'lar", exact: true }).waitFor();
    expect(await page.getByRole("navigation").getAttribute("aria-label")).toBe("Portal bölümleri");
    expect(await page.getByRole("navigation").innerText()).toMatch(/Uygulamalar[\s\S]*Doğrulamalar[\s\S]*Kişiler/);
    await page.locator("#deliveries-title ~ div table tbody tr").first().waitFor();
    expect(await page.locator("#deliveries-title ~ div table tbody").innerText()).toMatch(
      /Test olayı[\s\S]*Teslim edildi/,
    );
    expect(await page.locator("#who").innerText()).toMatch(/ · Sahip · .+ \(Test ortamı\)$/);
    expect(await page.title()).toBe("Müşteri portalı");

    await page.getByRole("button", { name: "Oturumu kapat" }).click();
    await page.getByRole("heading", { name: "Oturum açın" }).waitFor();
    await expect.poll(() => status(page).innerText()).toBe("Oturum kapatıldı.");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
