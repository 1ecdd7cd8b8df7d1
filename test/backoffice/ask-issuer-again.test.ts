/**
 * Asking e-Devlet again from review, over HTTP on the real runtime: a busy e-Devlet sends a
 * verification to review once its retry window passes; the claim's holder asks again (a reviewer
 * without the claim is refused, and so is a second asking within ten minutes), the issuer queue's
 * reader asks the simulator, now free, and the verification completes verified, with the audit
 * record of who asked. In the console (Chromium, Turkish, desktop and phone widths, axe-core on
 * the item): the box says e-Devlet gave no answer, its button asks, the box says the answer is
 * awaited, and the item turns completed when it arrives, without the reviewer reloading.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffVerification } from "#shared/domain/responses/review";
import { PUBLISHED_CERTIFICATES } from "../../local/resources.ts";
import { CATALOGUE } from "../../scripts/test-documents/catalogue.ts";
import { type CertificateSpec, certificatePdf } from "../../scripts/test-documents/certificate.ts";
import type { StaffUser } from "../support/api.ts";
import { expectAccessible, PHONE } from "../support/axe.ts";
import { useChromium } from "../support/chromium.ts";
import { callAs, expectProblem, expectVerification, upload } from "../support/client.ts";
import { signedInConsole } from "../support/console-page.ts";
import { useApiFixture } from "../support/fixture.ts";
import { until } from "../support/until.ts";

const held = mkdtempSync(path.join(os.tmpdir(), "edevlet-ask-again-"));
afterAll(() => rmSync(held, { recursive: true, force: true }));
const busyMarker = (barcode: string) => path.join(held, "YOK_STUDENT", `${barcode}.busy`);
const fx = useApiFixture({
  environment: "production",
  pipeline: true,
  issuer: { documents: [PUBLISHED_CERTIFICATES, held], settings: { ISSUER_RETRY_WINDOW_S: "2" } },
});

let reviewer: StaffUser;
let other: StaffUser;
let admin: StaffUser;
beforeAll(async () => {
  [reviewer, other, admin] = await Promise.all([
    fx.api.staffUser(["reviewers"]),
    fx.api.staffUser(["reviewers"]),
    fx.api.staffUser(["admins"]),
  ]);
});

/** The published active student's certificate under `barcode`, held by a busy e-Devlet. */
async function busyCertificate(barcode: string): Promise<Uint8Array> {
  const entry = CATALOGUE.find((candidate) => candidate.file === "yok-active.pdf");
  if (entry?.upload.kind !== "pdf") throw new Error("The catalogue has no yok-active.pdf");
  const pdf = await certificatePdf({ ...entry.upload.spec, barcode } as CertificateSpec);
  mkdirSync(path.dirname(busyMarker(barcode)), { recursive: true });
  writeFileSync(path.join(held, "YOK_STUDENT", `${barcode}.pdf`), pdf);
  writeFileSync(busyMarker(barcode), "");
  return pdf;
}

/** A verification of a certificate e-Devlet is busy for, waiting in review once the retry window passed. */
async function waitingForAnAnswer(barcode: string): Promise<string> {
  const pdf = await busyCertificate(barcode);
  const created = await fx.customer.created({ file_size_bytes: pdf.length });
  expect((await upload(created, pdf)).status).toBe(200);
  expect((await fx.customer.confirm(created.verification_id)).status).toBe(200);
  const id = created.verification_id;
  const reviewed = await until(
    () => staffView(id),
    (view) => view.status === "in_review",
    20_000,
  );
  expect(reviewed).toMatchObject({ reason_code: "issuer_unavailable", issuer_recheck: { asked_at: null } });
  return id;
}

const staffCall = (user: StaffUser, method: string, route: string) =>
  callAs(fx.api.backofficeUrl, user.accessToken, method, route);
const askAgain = (user: StaffUser, id: string) => staffCall(user, "POST", `/backoffice/v1/reviews/${id}/issuer-lookup`);
const staffView = async (id: string) =>
  (await staffCall(reviewer, "GET", `/backoffice/v1/verifications/${id}`)).json as StaffVerification;

describe("asking e-Devlet again from review", () => {
  it("the claim's holder asks a busy e-Devlet again; on its answer the verification completes verified", async () => {
    const id = await waitingForAnAnswer("ASKAGAIN-0001");

    expectProblem(await askAgain(reviewer, id), 409, "review_not_claimed");
    expect((await staffCall(other, "POST", `/backoffice/v1/reviews/${id}/claim`)).status).toBe(200);
    expectProblem(await askAgain(reviewer, id), 409, "review_claimed");

    // e-Devlet is free again; the holder asks, and a second asking at once is refused.
    rmSync(busyMarker("ASKAGAIN-0001"));
    const asked = await askAgain(other, id);
    expect(asked.status, asked.text).toBe(202);
    expect(asked.json).toMatchObject({ status: "in_review", issuer_recheck: { asked_by: other.username } });
    expectProblem(await askAgain(other, id), 409, "issuer_asked_recently");

    const decided = await until(
      async () => expectVerification(await fx.customer.get(id)),
      (verification) => verification.status === "completed",
      20_000,
    );
    expect(decided).toMatchObject({ result: "verified", reason_code: "verified" });
    expect((await staffView(id)).issuer_recheck).toBeNull();
    expectProblem(await askAgain(other, id), 409, "verification_not_in_review");

    const trail = await staffCall(admin, "GET", `/backoffice/v1/audit?verification_id=${id}`);
    const actions = (trail.json as { data: { action: string; actor: { username: string } }[] }).data;
    expect(actions.filter((record) => record.action === "review.issuer_asked")).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ username: other.username }) }),
    ]);
  });
});

describe("asking e-Devlet again in the console (headless chromium)", () => {
  const chromium = useChromium();
  const LOADED = { timeout: 30_000 };

  it.each([
    ["desktop", { width: 1280, height: 800 }],
    ["phone", PHONE],
  ] as const)(
    "the box asks, says the answer is awaited, and the item completes when it comes (%s)",
    async (name, size) => {
      const barcode = `ASKAGAIN-CONSOLE-${name.toUpperCase()}`;
      const id = await waitingForAnAnswer(barcode);
      const consoleUrl = `${fx.api.backofficeUrl}/backoffice/`;
      const { page, problems } = await signedInConsole(chromium.browser(), consoleUrl, reviewer, {
        size,
        language: "tr",
      });
      await page.evaluate(`location.hash = ${JSON.stringify(`#/reviews/${id}`)}`);
      await expect.poll(() => page.locator("article.item[aria-busy=false]").count(), LOADED).toBe(1);

      const box = page.locator("section.recheck");
      await expect.poll(() => box.textContent()).toContain("e-Devlet sorulduğunda kullanılabilir bir yanıt gelmedi");
      expect(await box.textContent()).toContain("Yeniden sormak için kaydı üstlenin");
      const ask = box.getByRole("button", { name: "e-Devlet'e yeniden sor" });
      expect(await ask.isHidden()).toBe(true);
      await expectAccessible(page, `an item e-Devlet gave no answer for (${name})`);

      await page.keyboard.press("c");
      await expect.poll(() => ask.isVisible(), LOADED).toBe(true);
      // The box stands under the keys, not in the decision panel: at 1280 x 800 the form's button
      // stays in the window (the item layout's rule, with the box shown).
      if (name === "desktop") {
        const decide = await page.locator("form.decision button[type=submit]").boundingBox();
        expect(decide && decide.y + decide.height <= size.height && decide.x + decide.width <= size.width).toBe(true);
      }
      rmSync(busyMarker(barcode));
      await ask.click();
      await expect
        .poll(async () => (await page.locator("#item-status").textContent()) ?? "", LOADED)
        .toContain("e-Devlet'e yeniden soruluyor");
      await expect.poll(() => box.textContent(), LOADED).toContain("yanıt bekleniyor");
      expect(await ask.isHidden()).toBe(true);
      await expectAccessible(page, `an item asking e-Devlet again (${name})`);

      // The answer arrives: the item reads itself again and shows the outcome, no reload.
      await expect.poll(() => page.locator("section.decided").textContent(), LOADED).toContain("Doğrulandı");
      expect(await box.isHidden()).toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
