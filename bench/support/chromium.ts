/**
 * Headless Chromium for the live view's browser test and bench:ui: Debian's chromium driven by
 * playwright-core (which downloads no browser), with a fresh profile in a temp dir that is
 * removed on close. A missing browser is an error that says how to install it — the tests
 * that use it fail rather than skip.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Quiet, self-contained flags: no GPU, no sandbox (containers), no background traffic. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Chromium {
  context: BrowserContext;
  page: Page;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** launchChromium starts the browser with one page; throws with instructions when Chromium is missing. */
export async function launchChromium(viewport = { width: 1400, height: 1000 }, options: { ignoreHttpsErrors?: boolean } = {}): Promise<Chromium> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM_PATH}: the live view's browser tests drive Debian's Chromium through playwright-core. ` +
        'Install it with `sudo apt-get install chromium` (.ci/run installs it on CI).',
    );
  }
  // playwright passes the profile as --user-data-dir; it refuses that flag among the args.
  const profile = mkdtempSync(join(tmpdir(), 'kubesim-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport,
      ignoreHTTPSErrors: options.ignoreHttpsErrors,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      context,
      page,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
}
