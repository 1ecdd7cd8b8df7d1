/** The review console in a real browser, signed in: what the console's browser tests start from. */
import type { BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";

/**
 * A new page of `browser` at `consoleUrl`, at `size` and in `language` (English by default),
 * signed in as `user` by the form, once its queue shows; the page's script errors collect in
 * `problems`.
 */
export async function signedInConsole(
  browser: BrowserContext,
  consoleUrl: string,
  user: { username: string; password: string },
  options: { size: { width: number; height: number }; language?: "tr" | "en" },
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  await page.setViewportSize(options.size);
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  expect((await page.goto(consoleUrl))?.status()).toBe(200);
  const language = options.language ?? "en";
  await page.locator("#language").selectOption(language);
  await page.locator(`html[lang=${language}]`).waitFor();
  await page.locator("input[name=username]").fill(user.username);
  await page.locator("input[name=password]").fill(user.password);
  await page.locator("form.sign-in button[type=submit]").click();
  await page.locator("table.queue").waitFor();
  return { page, problems };
}
