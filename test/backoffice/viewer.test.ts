/**
 * The item's document viewer in headless chromium, against the local runtime: a photo case shows
 * the barcode and the masked identity number beside the photo without scrolling, the photo whole
 * at fit, larger when zoomed (by button and key) and turned a quarter at a time; a PDF pair is
 * drawn by pdf.js to canvases side by side at one scale, and an altered copy's differing lines are
 * marked on both copies and listed. The clear identity number is nowhere in the page or the
 * staff API's answers, and every screen passes axe-core in Turkish and English at desktop width
 * and a phone's.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { VerificationResource } from "#shared/domain/responses/verification";
import type { PdfDocument, Pdfjs, PdfPage } from "../../web/backoffice/pdfjs.ts";
import { lineDifferences, linesOf, type TextRun } from "../../web/backoffice/text-diff.ts";
import type { StaffUser } from "../support/api.ts";
import { expectAccessible, PHONE } from "../support/axe.ts";
import { useChromium } from "../support/chromium.ts";
import { processedDocument } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

/** How long a poll waits for the page: pdf.js reads and draws both copies first, on a busy machine. */
const LOADED = { timeout: 30_000 };

const fx = useApiFixture({ pipeline: true });

/** The identity numbers printed in the certificates below (docs/test-documents/README.md). */
const PHOTO_TCKN = "10000000146";
const ALTERED_TCKN = "10000000528";

let reviewer: StaffUser;
/** yok-photo.png: a photo of yok-active.pdf, in review with the issuer's copy. */
let photo: VerificationResource;
/** yok-altered.pdf: rejected document_altered, the issuer's original kept. */
let altered: VerificationResource;
/** gsb-fields-incomplete.pdf: in review, the same PDF as the issuer's copy. */
let same: VerificationResource;
/** gsb-accommodated.pdf, stored as a verification processed before the keys were kept. */
let older: VerificationResource;
let consoleUrl: string;

beforeAll(async () => {
  reviewer = await fx.api.staffUser(["reviewers"]);
  photo = await processedDocument(fx.customer, "yok-photo.png", "YOK_STUDENT", {
    status: "in_review",
    reason_code: "original_pdf_not_provided",
  });
  altered = await processedDocument(fx.customer, "yok-altered.pdf", "YOK_STUDENT", {
    status: "completed",
    reason_code: "document_altered",
  });
  same = await processedDocument(fx.customer, "gsb-fields-incomplete.pdf", "GSB_KYK_DORM", {
    status: "in_review",
    reason_code: "fields_incomplete",
  });
  older = await processedDocument(fx.customer, "gsb-accommodated.pdf", "GSB_KYK_DORM", {
    status: "completed",
    result: "verified",
  });
  await fx.api.db.send(
    new UpdateCommand({
      TableName: fx.api.tables.verifications,
      Key: { verification_id: older.verification_id },
      UpdateExpression: "REMOVE document_keys",
    }),
  );
  consoleUrl = `${fx.api.backofficeUrl}/backoffice/`;
}, 90_000);

describe("the viewer's parts", () => {
  it("use pdf.js as pdfjs-dist declares it", () => {
    expectTypeOf<typeof import("pdfjs-dist")>().toExtend<Pdfjs<unknown>>();
    expectTypeOf<PDFDocumentProxy>().toExtend<PdfDocument<unknown>>();
    expectTypeOf<PDFPageProxy>().toExtend<PdfPage<unknown>>();
  });

  it("gathers runs into lines and marks only the runs the other copy lacks", () => {
    const run = (text: string, x: number, y: number, width = text.length * 5): TextRun => ({
      text,
      x,
      y,
      width,
      height: 10,
    });
    // The same line split into runs differently, and one whose value changed.
    const upload = linesOf(1, [
      run("Adı", 10, 700),
      run("Soyadı", 30, 701),
      run("Durumu :", 10, 680),
      run("Aktif", 60, 680),
    ]);
    const issuer = linesOf(1, [run("Adı Soyadı", 10, 700), run("Durumu :", 10, 680), run("Mezun", 60, 680)]);
    expect(upload.map((line) => line.text)).toEqual(["Adı Soyadı", "Durumu : Aktif"]);

    const differences = lineDifferences(upload, issuer);

    expect(differences.upload.map(({ line, marked }) => [line.text, marked.map((r) => r.text)])).toEqual([
      ["Durumu : Aktif", ["Aktif"]],
    ]);
    expect(differences.issuer.map(({ line, marked }) => [line.text, marked.map((r) => r.text)])).toEqual([
      ["Durumu : Mezun", ["Mezun"]],
    ]);
    expect(lineDifferences(issuer, issuer)).toEqual({ upload: [], issuer: [] });
  });
});

describe("the document viewer in headless chromium", () => {
  const chromium = useChromium();

  /** A new tab at 1280 x 800, signed in, the console in `language`, collecting script errors, policy violations and the staff API's answers. */
  async function signedIn(
    language: "tr" | "en" = "en",
  ): Promise<{ page: Page; problems: string[]; answers: string[] }> {
    const page = await chromium.browser().newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const problems: string[] = [];
    const answers: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on("response", (response) => {
      if (response.url().includes("/backoffice/v1/"))
        void response.text().then(
          (body) => answers.push(body),
          () => {},
        );
    });
    expect((await page.goto(consoleUrl))?.status()).toBe(200);
    await page.locator("#language").selectOption(language);
    await page.locator(`html[lang=${language}]`).waitFor();
    await page.locator("input[name=username]").fill(reviewer.username);
    await page.locator("input[name=password]").fill(reviewer.password);
    await page.locator("form.sign-in button[type=submit]").click();
    await page.locator("table.queue").waitFor();
    return { page, problems, answers };
  }

  /** Opens the item `id` by its address, as a link to it does. */
  async function openItem(page: Page, id: string): Promise<void> {
    await page.evaluate(`location.hash = ${JSON.stringify(`#/reviews/${id}`)}`);
    await page.locator("#item-title").getByText(id).waitFor();
  }

  const pane = (page: Page, copy: "upload" | "issuer") => page.locator(`.viewer-pane[data-copy=${copy}]`);
  const zoomLevel = (page: Page) => page.locator(".viewer-toolbar output");
  const box = async (locator: Locator) => {
    const found = await locator.boundingBox();
    if (!found) throw new Error("Not shown");
    return found;
  };
  /** Whether `inner` lies inside `outer`, give or take a pixel of rounding. */
  const within = (
    inner: { x: number; y: number; width: number; height: number },
    outer: { x: number; y: number; width: number; height: number },
  ) =>
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1;

  /** What the tests read of an element in the page (they are type-checked without the DOM's types). */
  interface ElementRead {
    complete: boolean;
    naturalWidth: number;
    scrollWidth: number;
    clientWidth: number;
    scrollHeight: number;
    clientHeight: number;
    scrollTop: number;
    scrollLeft: number;
    style: { transform: string };
  }
  /** The pane's content against its visible area: whether anything scrolls. */
  const scrolls = (locator: Locator) =>
    locator.evaluate((shown) => {
      const element = shown as unknown as ElementRead;
      return element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight;
    });
  const transform = (locator: Locator) =>
    locator.evaluate((shown) => (shown as unknown as ElementRead).style.transform);
  const decoded = (locator: Locator) =>
    locator.evaluate(
      (shown) => (shown as unknown as ElementRead).complete && (shown as unknown as ElementRead).naturalWidth > 0,
    );

  it("shows a photo case's barcode and masked number beside the photo above the fold, the photo whole at fit, zoomed and turned by buttons and keys", async () => {
    const { page, problems, answers } = await signedIn();
    await openItem(page, photo.verification_id);
    const image = pane(page, "upload").locator(".viewer-stage > img");
    await expect.poll(() => decoded(image), LOADED).toBe(true);
    await pane(page, "issuer").locator("canvas").waitFor();

    // The keys, beside the upload, without scrolling: the reviewer reads the barcode at once.
    const keys = page.locator(".document-keys");
    await expect.poll(() => keys.innerText(), LOADED).toContain("TESTYOK-0001-AKTIF");
    expect(await keys.innerText()).toContain("10*******46");
    const keysBox = await box(keys);
    expect(keysBox.y + keysBox.height).toBeLessThanOrEqual(800);
    expect(await page.evaluate<number>("window.scrollY")).toBe(0);
    expect(keysBox.x + keysBox.width).toBeLessThanOrEqual((await box(pane(page, "upload"))).x);
    await expect.poll(() => page.locator(".lines").innerText(), LOADED).toContain("The upload is a photo");

    // Fit: the whole photo in its pane, nothing to scroll; 100 % of the fit.
    await expect.poll(() => zoomLevel(page).innerText(), LOADED).toBe("100%");
    expect(within(await box(image), await box(pane(page, "upload")))).toBe(true);
    expect(await scrolls(pane(page, "upload"))).toBe(false);
    const fitted = await box(image);

    // The loupe: over the photo, a circle on the pointer showing it three times larger; gone when the pointer leaves.
    const loupe = pane(page, "upload").locator(".viewer-loupe");
    expect(await loupe.isVisible()).toBe(false);
    const [pointerX, pointerY] = [fitted.x + fitted.width / 3, fitted.y + fitted.height / 4];
    await page.mouse.move(pointerX, pointerY);
    await expect.poll(() => loupe.isVisible(), LOADED).toBe(true);
    const lens = await box(loupe);
    expect(lens.x + lens.width / 2).toBeCloseTo(pointerX, 0);
    expect(lens.y + lens.height / 2).toBeCloseTo(pointerY, 0);
    // Inside it the photo three times larger, placed so the point under the pointer is at its centre.
    const magnified = await box(loupe.locator("img"));
    expect(magnified.width).toBeCloseTo(fitted.width * 3, 0);
    const [centreX, centreY] = [fitted.x + fitted.width / 2, fitted.y + fitted.height / 2];
    expect(magnified.x + magnified.width / 2).toBeCloseTo(pointerX - (pointerX - centreX) * 3, 0);
    expect(magnified.y + magnified.height / 2).toBeCloseTo(pointerY - (pointerY - centreY) * 3, 0);
    await page.mouse.move(fitted.x + fitted.width / 2, (await box(pane(page, "upload"))).y - 40);
    await expect.poll(() => loupe.isVisible(), LOADED).toBe(false);

    // Zoomed in by the button, then by the key: larger, and all of it still reachable by scrolling the pane.
    await page.getByRole("button", { name: /^Zoom in/ }).click();
    await expect.poll(() => zoomLevel(page).innerText(), LOADED).toBe("125%");
    expect((await box(image)).width).toBeCloseTo(fitted.width * 1.25, 0);
    await page.keyboard.press("+");
    await expect.poll(() => zoomLevel(page).innerText(), LOADED).toBe("150%");
    expect((await box(image)).width).toBeCloseTo(fitted.width * 1.5, 0);
    expect(await scrolls(pane(page, "upload"))).toBe(true);
    expect(within(await box(image), await box(pane(page, "upload").locator(".viewer-stage")))).toBe(true);
    await page.keyboard.press("-");
    await expect.poll(() => zoomLevel(page).innerText(), LOADED).toBe("125%");

    // Turned a quarter by the key: the photo lies on its side, still whole on its stage; then by the button.
    await page.keyboard.press("t");
    await expect.poll(() => transform(image), LOADED).toContain("rotate(90deg)");
    const turned = await box(image);
    expect(turned.width / turned.height).toBeCloseTo(fitted.height / fitted.width, 1);
    expect(within(turned, await box(pane(page, "upload").locator(".viewer-stage")))).toBe(true);
    await page.getByRole("button", { name: /^Rotate upload/ }).click();
    await expect.poll(() => transform(image), LOADED).toContain("rotate(180deg)");
    // The issuer's copy does not turn with the upload.
    const issuerPage = await box(pane(page, "issuer").locator("canvas"));
    expect(issuerPage.width).toBeLessThan(issuerPage.height);

    // 0 fits again: the turned photo whole in its pane.
    await page.keyboard.press("0");
    await expect.poll(() => zoomLevel(page).innerText(), LOADED).toBe("100%");
    expect(within(await box(image), await box(pane(page, "upload")))).toBe(true);

    // The clear number is nowhere: not in the page, not in what the staff API answered.
    expect(await page.content()).not.toContain(PHOTO_TCKN);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.join("")).not.toContain(PHOTO_TCKN);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("draws a PDF pair to canvases side by side at one scale, marks and lists the altered copy's differing lines", async () => {
    const { page, problems } = await signedIn();
    await openItem(page, altered.verification_id);
    const canvases = [pane(page, "upload").locator("canvas"), pane(page, "issuer").locator("canvas")] as const;
    for (const canvas of canvases) await canvas.first().waitFor();
    // pdf.js parses in its worker, served with the console's files under the console's policy.
    expect(page.workers().map((worker) => worker.url())).toContain(`${consoleUrl}assets/pdf.worker.mjs`);
    const [uploadBox, issuerBox] = [await box(canvases[0]), await box(canvases[1])];
    expect(uploadBox.x + uploadBox.width).toBeLessThan(issuerBox.x);
    expect(Math.abs(uploadBox.y - issuerBox.y)).toBeLessThan(2);
    expect(uploadBox.width).toBeCloseTo(issuerBox.width, 0);
    expect(uploadBox.height).toBeCloseTo(issuerBox.height, 0);
    // At fit a portrait page spans its pane's width (its text readable): down, never across, it may scroll.
    const uploadPane = pane(page, "upload");
    const fitted = await uploadPane.evaluate((shown) => {
      const element = shown as unknown as ElementRead;
      return { width: element.clientWidth, across: element.scrollWidth > element.clientWidth };
    });
    expect(uploadBox.width).toBeGreaterThan(fitted.width - 30);
    expect(fitted.across).toBe(false);

    // The line the alteration changed, listed under each copy, and marked over the run that differs.
    const lines = page.locator(".lines");
    await expect.poll(() => lines.innerText(), LOADED).toContain("Only in the upload");
    const listed = await lines.innerText();
    expect(listed).toMatch(/Only in the upload\s+Page 1: [^\n]*Aktif Öğrenci/);
    expect(listed).toMatch(/Only in the issuer's copy\s+Page 1: [^\n]*Mezun/);
    // Listed first in the side column, above the keys.
    expect(await page.locator(".viewer-side > section").first().getAttribute("class")).toBe("lines");
    for (const copy of ["upload", "issuer"] as const) {
      const marks = pane(page, copy).locator(".viewer-mark");
      await expect.poll(() => marks.count(), LOADED).toBeGreaterThan(0);
      expect(within(await box(marks.first()), await box(pane(page, copy).locator("canvas")))).toBe(true);
    }

    // Both copies zoom together, what was at each pane's centre staying there, and the marks follow.
    const centreOf = () =>
      uploadPane.evaluate((shown) => {
        const element = shown as unknown as ElementRead;
        return (element.scrollTop + element.clientHeight / 2) / element.scrollHeight;
      });
    await uploadPane.evaluate((shown) => {
      const element = shown as unknown as ElementRead;
      element.scrollTop = element.scrollHeight / 3;
    });
    const centre = await centreOf();
    await page.keyboard.press("+");
    for (const canvas of canvases) {
      await expect.poll(async () => (await box(canvas)).width, LOADED).toBeCloseTo(uploadBox.width * 1.25, 0);
    }
    expect(await centreOf()).toBeCloseTo(centre, 1);
    const mark = pane(page, "upload").locator(".viewer-mark").first();
    await expect.poll(async () => within(await box(mark), await box(canvases[0])), LOADED).toBe(true);

    // A listed line brings its mark into view: zoomed to 300 % and scrolled away from it, then clicked.
    for (const step of ["150%", "200%", "300%"]) {
      await page.keyboard.press("+");
      await expect.poll(() => zoomLevel(page).innerText(), LOADED).toBe(step);
    }
    const inView = async () => within(await box(mark), await box(uploadPane));
    const scrollTo = (end: "start" | "end") =>
      uploadPane.evaluate((shown, to) => {
        const element = shown as unknown as ElementRead;
        element.scrollTop = to === "start" ? 0 : element.scrollHeight;
        element.scrollLeft = to === "start" ? 0 : element.scrollWidth;
      }, end);
    await scrollTo("start");
    if (await inView()) await scrollTo("end");
    expect(await inView()).toBe(false);
    await lines.getByRole("button", { name: /Aktif Öğrenci/ }).click();
    await expect.poll(inView, LOADED).toBe(true);

    // The identity number printed in the PDFs is drawn, never written into the page.
    expect(await page.content()).not.toContain(ALTERED_TCKN);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("says the texts are the same when they are, and that the keys were not recorded for an older verification", async () => {
    const { page, problems } = await signedIn();
    await openItem(page, same.verification_id);
    await expect.poll(() => page.locator(".lines").innerText(), LOADED).toContain("The texts are the same.");
    expect(await page.locator(".viewer-mark").count()).toBe(0);
    expect(await page.locator(".viewer-side > section").first().getAttribute("class")).toBe("document-keys");
    expect(await page.locator(".document-keys").innerText()).toContain("TESTGSB-0004-EKSIK");

    await openItem(page, older.verification_id);
    await expect.poll(() => page.locator(".document-keys").innerText(), LOADED).toContain("Not recorded");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("passes axe-core in Turkish and English at desktop width and a phone's, the copies stacked on a phone", async () => {
    const { page, problems } = await signedIn("tr");
    for (const verification of [photo, altered]) {
      await openItem(page, verification.verification_id);
      await pane(page, "issuer").locator("canvas").waitFor();
      await expect.poll(() => page.locator(".lines p").count(), LOADED).toBeGreaterThan(0);
      await expect.poll(() => page.locator(".lines").innerText(), LOADED).not.toContain("karşılaştırılıyor");
      for (const language of ["tr", "en"] as const) {
        await page.locator("#language").selectOption(language);
        await page.locator(`html[lang=${language}]`).waitFor();
        await pane(page, "issuer").locator("canvas").waitFor();
        const [heading, fit] = language === "tr" ? ["Farklı satırlar", "%100"] : ["Lines that differ", "100%"];
        expect(await page.locator("#lines-title").innerText()).toBe(heading);
        await expect.poll(() => zoomLevel(page).innerText(), LOADED).toBe(fit);
        await expectAccessible(page, `viewer of ${verification.reason_code} (${language})`);
      }
      await page.locator("#language").selectOption("tr");
      await page.locator("html[lang=tr]").waitFor();
    }
    await page.setViewportSize(PHONE);
    await pane(page, "issuer").locator("canvas").waitFor();
    const [uploadPane, issuerPane] = [await box(pane(page, "upload")), await box(pane(page, "issuer"))];
    expect(issuerPane.y).toBeGreaterThanOrEqual(uploadPane.y + uploadPane.height);
    expect(uploadPane.width).toBeLessThanOrEqual(PHONE.width);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
