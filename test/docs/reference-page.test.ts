/**
 * The API reference the local runtime serves: `/openapi.json` and `/docs`, rendered by Redoc
 * from node_modules in Debian's headless chromium (installed by `npm test`'s pretest step).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "#shared/declarations/public-api";
import { buildDocument } from "../../openapi/document.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { useChromium } from "../support/chromium.ts";
import { call, expectProblem } from "../support/client.ts";

const root = path.resolve(__dirname, "../..");

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.stop());

describe("the reference the local runtime serves", () => {
  it("serves the generated document at /openapi.json, with no API key", async () => {
    const response = await fetch(`${api.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual(buildDocument());
  });

  it("serves the page and Redoc's bundle from node_modules, with no API key and no CDN", async () => {
    const page = await fetch(`${api.baseUrl}/docs`);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    expect(html).toContain('<redoc spec-url="/openapi.json"');
    expect([...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1])).toEqual([
      "data:,",
      "/docs/redoc.standalone.js",
    ]);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    const bundle = await fetch(`${api.baseUrl}/docs/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
  });

  it("is not an API route: other methods and paths still answer the gateway's 404", async () => {
    expectProblem(await call(api.baseUrl, "POST", "/docs"), 404, "route_not_found");
    expectProblem(await call(api.baseUrl, "GET", "/docs/other.js"), 404, "route_not_found");
  });
});

describe("/docs in headless chromium", () => {
  const chromium = useChromium();

  it("renders every operation from this machine alone, and saves a screenshot", async () => {
    const page = await chromium.browser().newPage();
    // The page's policy blocks Redoc's CDN logo before the network: nothing off this machine may answer.
    const answeredFromElsewhere: string[] = [];
    page.on("response", (response) => {
      if (/^https?:/.test(response.url()) && !response.url().startsWith(api.baseUrl)) {
        answeredFromElsewhere.push(response.url());
      }
    });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));

    await page.goto(`${api.baseUrl}/docs`);
    const document = buildDocument() as { paths: Record<string, Record<string, { summary: string }>> };
    const summaries = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.summary));
    expect(summaries).toHaveLength(ROUTES.length);
    await expect
      .poll(() => page.locator("h2").allInnerTexts(), { timeout: 20_000 })
      .toEqual(expect.arrayContaining(summaries));
    for (const route of ROUTES) {
      expect(await page.getByText(route.path, { exact: true }).count(), route.path).toBeGreaterThan(0);
    }

    // Open the side menu's group, so the screenshot shows every operation listed too.
    await page.getByRole("menuitem", { name: "Verifications", exact: true }).click();
    for (const summary of summaries) {
      await expect.poll(() => page.getByRole("menuitem", { name: summary }).isVisible()).toBe(true);
    }

    mkdirSync(path.join(root, "test-results"), { recursive: true });
    const screenshot = await page.screenshot({ path: path.join(root, "test-results", "docs.png") });
    expect(screenshot.length).toBeGreaterThan(10_000);
    expect(errors).toEqual([]);
    expect(answeredFromElsewhere).toEqual([]);
  }, 60_000);
});
