import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export interface TestBrowser {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

const CHROMIUM_PATH = process.env.AMC_CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's headless Chromium with a fresh profile and no background traffic (this machine has no network); `locale`
 * is the browser's language (navigator.language), Chromium's own when not given.
 */
export async function launchTestBrowser(viewport = { width: 1280, height: 800 }, locale?: string): Promise<TestBrowser> {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'amc-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport,
    ...(locale && { locale }),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  return {
    browser: context.browser() as Browser,
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
