/**
 * Accessibility in the page tests: axe-core's rules run inside a playwright-core page, as it
 * shows now, at desktop width and at a phone's (390 px). The source is handed to the page
 * through the debugging protocol, so the page's Content-Security-Policy stays as served and
 * still refuses anything inline. Frames are left out: the console's frames hold PDFs from the
 * uploads bucket, which are not the page's own.
 */
import axe from "axe-core";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** One rule broken, where, and what it asks for. */
export interface Violation {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** A phone's width: below the pages' 600 px breakpoint, where tables become cards. */
export const PHONE = { width: 390, height: 844 } as const;

async function injected(page: Page): Promise<void> {
  if (await page.evaluate<boolean>("typeof window.axe === 'object'")) return;
  await page.evaluate(axe.source);
}

/** axe-core's serious and critical findings on the page (or within `selector`), for these rules or all. */
export async function axeViolations(
  page: Page,
  options: { selector?: string; rules?: string[] } = {},
): Promise<Violation[]> {
  await injected(page);
  const context = JSON.stringify(options.selector ?? "body");
  const runOptions = JSON.stringify({
    iframes: false,
    resultTypes: ["violations"],
    ...(options.rules ? { runOnly: { type: "rule", values: options.rules } } : {}),
  });
  return page.evaluate<Violation[]>(
    `axe.run(document.querySelector(${context}), ${runOptions}).then((results) =>
      results.violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map((violation) => ({
          rule: violation.id,
          impact: violation.impact,
          help: violation.help,
          targets: violation.nodes.map((node) => node.target.join(" ")),
        })))`,
  );
}

/** How much wider than the window the page is laid out: 0 when nothing scrolls sideways. */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
}

/**
 * The screen passes axe-core at desktop width and at 390 px, where it also does not scroll
 * sideways, and a primary button keeps its contrast under the pointer. The window is put back as
 * it was.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect(await axeViolations(page), `${screen} at desktop width`).toEqual([]);
  const primary = page.locator("button.primary:visible:enabled").first();
  if ((await primary.count()) > 0) {
    await primary.hover();
    expect(
      await axeViolations(page, { selector: "button.primary:hover", rules: ["color-contrast"] }),
      `${screen}: a primary button under the pointer`,
    ).toEqual([]);
    await page.mouse.move(0, 0);
  }
  const desktop = page.viewportSize();
  await page.setViewportSize(PHONE);
  try {
    expect(await axeViolations(page), `${screen} at ${PHONE.width} px`).toEqual([]);
    expect(await horizontalOverflow(page), `${screen} scrolls sideways at ${PHONE.width} px`).toBeLessThanOrEqual(0);
    // A table shown as cards sets each named cell's label beside its value, not run into it.
    const runTogether = await page.evaluate<string[]>(
      `[...document.querySelectorAll("td[data-label]:not([data-label=''])")]
        .filter((cell) => cell.offsetParent !== null && getComputedStyle(cell).display !== "grid")
        .map((cell) => cell.getAttribute("data-label"))`,
    );
    expect(runTogether, `${screen}: cards at ${PHONE.width} px whose labels run into their values`).toEqual([]);
  } finally {
    if (desktop) await page.setViewportSize(desktop);
  }
}
