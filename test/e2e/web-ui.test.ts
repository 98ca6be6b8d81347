/**
 * The live view in a real browser against a real `kubesim up`: headless Chromium (Debian's,
 * through playwright-core) opens the page the cluster prints, and the test checks what a
 * learner would — a Deployment's pods appear in the graph, deleting one from the page brings a
 * replacement, the loop table lists the replicaset loop, the pause button stops the cluster
 * clock. A screenshot goes to test-results/web-ui.png (a CI artifact).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from '../../bench/support/chromium.js';
import { eventually } from '../support/eventually.js';
import { request, trustKubeconfig } from '../support/http.js';
import { deployment, paths } from '../support/objects.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';

const SCREENSHOT = resolve(import.meta.dirname, '../../test-results/web-ui.png');

/** podChips lists the names of the pods the page draws under Deployment `name`. */
const podChips = (page: Page, name: string): Promise<Array<{ name: string; phase: string }>> =>
  page.$$eval(`.card.deployments[data-name="${name}"] [data-kind="pods"]`, (chips) =>
    chips.map((chip) => ({ name: chip.getAttribute('data-name') ?? '', phase: chip.getAttribute('class') ?? '' })),
  );

describe('the live view in a browser', () => {
  let dir: string;
  let url: string;
  let browser: Chromium;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-ui-'));
    const up = spawnKubesim(['up', '--port', '0', '--kubeconfig', join(dir, 'kubeconfig')]);
    const [, ui] = await up.waitForOutput(/live view: (https?:\/\/\S+)/);
    trustKubeconfig(readFileSync(join(dir, 'kubeconfig'), 'utf8'));
    url = new URL(ui!).origin;
    // The browser does not know the cluster CA: as a learner who accepts the warning.
    browser = await launchChromium(undefined, { ignoreHttpsErrors: true });
    page = browser.page;
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(ui!);
    await page.locator('#connection[data-state="live"]').waitFor({ timeout: 10_000 });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws a created Deployment, its ReplicaSet and its pods as they become ready', async () => {
    expect((await request(`${url}${paths.deployments()}`, { method: 'POST', body: deployment('web', 2) })).status).toBe(201);
    await eventually(
      async () => {
        const chips = await podChips(page, 'web');
        expect(chips).toHaveLength(2);
        for (const chip of chips) expect(chip.phase).toContain('phase-ready');
        // The Deployment's own count follows its status, which its loop updates after the pods.
        expect(await page.locator('.card.deployments[data-name="web"] .card-head .count').first().textContent()).toBe('2/2 ready');
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(await page.locator('.card.deployments[data-name="web"] .card.replicasets').count()).toBe(1);
  }, 60_000);

  it('deletes a pod from the page, and a replacement appears', async () => {
    const before = (await podChips(page, 'web')).map((chip) => chip.name);
    const victim = before[0]!;
    await page.locator(`[data-kind="pods"][data-name="${victim}"]`).click();
    await expect.poll(() => page.locator('#selection h3').textContent()).toContain(victim);
    await page.locator('#selection button.delete-pod').click();
    await eventually(
      async () => {
        const chips = await podChips(page, 'web');
        const names = chips.map((chip) => chip.name);
        expect(names).not.toContain(victim);
        expect(names.filter((name) => !before.includes(name))).toHaveLength(1);
        expect(chips.filter((chip) => chip.phase.includes('phase-ready'))).toHaveLength(2);
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(await page.locator('#timeline td', { hasText: `Pod default/${victim}` }).count()).toBeGreaterThan(0);
  }, 60_000);

  it('lists the replicaset loop in the loop table', async () => {
    const row = page.locator('#loops tr[data-loop="replicaset"]');
    await row.first().waitFor({ timeout: 10_000 });
    expect(await row.first().locator('td').nth(1).textContent()).toMatch(/^running pid \d+/);
  });

  it('pauses and resumes the cluster clock from the page', async () => {
    const clock = async () => (await request(`${url}/apis/kubesim.io/v1alpha1/clock`)).body;
    expect((await clock()).paused).toBe(false);
    await page.locator('#clock-pause').click();
    await eventually(async () => expect((await clock()).paused).toBe(true));
    await expect.poll(() => page.locator('#clock-state').textContent()).toBe('paused');
    await page.locator('#clock-resume').click();
    await eventually(async () => expect((await clock()).paused).toBe(false));
    await expect.poll(() => page.locator('#clock-state').textContent()).toBe('running ×1');
  });

  it('saves a screenshot of the page with a pod selected, and threw no errors', async () => {
    await page.locator('.card.deployments[data-name="web"] [data-kind="pods"]').first().click();
    mkdirSync(resolve(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
