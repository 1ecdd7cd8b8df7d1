/**
 * Debian's headless chromium (installed by `npm test`'s pretest step), driven by playwright-core:
 * one persistent browser per describe block, its profile removed after.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

const CHROMIUM = "/usr/bin/chromium";
/** Without these, chromium on a machine with no internet waits on network services it cannot reach. */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A browser for the tests of the enclosing describe block: started before them, closed after; `settings` give it a locale or a time zone. */
export function useChromium(settings: { locale?: string; timezoneId?: string } = {}): { browser(): BrowserContext } {
  let context: BrowserContext | undefined;
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), "verification-chromium-"));
  beforeAll(async () => {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1440, height: 1000 },
      ...settings,
    });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    rmSync(userDataDir, { recursive: true, force: true });
  });
  return {
    browser() {
      if (!context) throw new Error("The browser has not started");
      return context;
    },
  };
}

/** The zone the console's browser tests run in: its staff's. */
export const TIME_ZONE = "Europe/Istanbul";

const dayIn = (at: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    at,
  );

/**
 * An instant as `page` (in `TIME_ZONE`) must show it: the time of day on a 24-hour clock when it
 * falls on the page's today, else its date too, in the page's language (as web/common/dom.ts
 * `clockText` has it); a claim taken before midnight lapses the next day.
 */
export async function pageClock(page: Page, iso: string): Promise<string> {
  const [language, now] = await page.evaluate<[string, number]>("[document.documentElement.lang, Date.now()]");
  const at = Date.parse(iso);
  const options: Intl.DateTimeFormatOptions =
    dayIn(at) === dayIn(now) ? { hour: "2-digit", minute: "2-digit" } : { dateStyle: "medium", timeStyle: "short" };
  return new Intl.DateTimeFormat(language, { ...options, timeZone: TIME_ZONE, hourCycle: "h23" }).format(at);
}
