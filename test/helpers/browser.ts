/**
 * Headless Chromium for the report tests: the Debian package's browser, driven by
 * playwright-core. Missing outside CI the test is skipped; in CI it fails (.ci/run installs it).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { TestContext } from 'node:test';
import type { Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser is there; skips the test (or fails it in CI) when it is not. */
export function haveChromium(t: TestContext): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env['CI']) assert.fail(`${CHROMIUM} is missing in CI: .ci/run must install the Debian chromium package`);
  t.skip(`${CHROMIUM} not installed (apt-get install chromium); the browser check runs in CI`);
  return false;
}

/**
 * Opens `file` in a 1600 x 1000 page and runs `check` on it with the errors seen so far (console
 * errors, uncaught page errors, failed requests), then closes the browser.
 */
export async function withReportPage<T>(file: string, check: (page: Page, errors: readonly string[]) => Promise<T>): Promise<T> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
    await page.goto(`file://${file}`);
    return await check(page, errors);
  } finally {
    await browser.close();
  }
}
