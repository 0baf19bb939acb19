// Layer 1 of the desktop tests (see renderer.browser.test.ts), for issue 14: the dashboard keeps
// the user's work across tab switches, a lost connection and "Change"; it refuses to send the
// dashboard token in cleartext to another machine without asking. A REAL service with a page of
// reviews more than fits, some failing, in two repositories.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiffReviewClient } from '../../service/client/index.ts';
import { createService, type Service } from '../../service/index.ts';
import { allReviews } from '../support/all-reviews.ts';
import { settledReviews } from '../support/settled-review.ts';
import { findChromium, inCI } from './support/chromium.ts';
import {
  closeInOrder,
  dashboardClients,
  openRenderer,
  type RendererBuild,
  type RendererHarness,
  requireChromium,
  SCREENSHOTS,
} from './support/renderer-harness.ts';

const CONTROLLED_WORKER = new URL('../fixtures/workers/controlled-worker.ts', import.meta.url);
const chromiumPath = findChromium();
const SEEDED = 60;

const rows = (page: Page) => page.locator('.job-row');
const selectedRowId = (page: Page) =>
  page
    .locator('.job-row[aria-current="true"]')
    .getAttribute('data-review-id', { timeout: 2000 })
    .catch(() => null);
/** The stale-data note of the visible tab. */
const staleNote = (page: Page) => page.locator('[role="tabpanel"]:not([hidden])').getByText(/Showing what was loaded/);
const tab = (page: Page, name: 'Reviews' | 'Tokens') => page.getByRole('tab', { name }).click();

describe.skipIf(!chromiumPath && !inCI())('desktop renderer in Chromium: state that stays (issue 14)', () => {
  let renderer: RendererBuild;
  let service: Service;
  let dataDir: string;
  let dashboardToken: string;
  let client: DiffReviewClient;
  let app: RendererHarness;
  const start = (port = 0) =>
    createService({
      dataDir,
      port,
      logLevel: 'silent',
      concurrency: 2,
      workerFile: CONTROLLED_WORKER,
      rateLimits: { create: 10_000, read: 100_000, tokens: 10_000 },
    });

  beforeAll(async () => {
    const chromium = requireChromium(chromiumPath);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-state-'));
    service = await start();
    ({ dashboardToken, client } = await dashboardClients(service));
    for (let i = 0; i < SEEDED; i++) {
      await client.createReview({
        diff: i % 10 === 3 ? 'THROW\n' : 'SLEEP 0\n',
        repository: i % 2 ? 'github.com/acme/beta' : 'github.com/acme/alpha',
      });
    }
    await settledReviews(() => allReviews(client), { timeoutMs: 20_000, intervalMs: 100 });
    ({ renderer, app } = await openRenderer(chromium));
  }, 60_000);
  /** Each test stands alone: connected (through main, as a saved choice would be) if a test before did not. */
  const connected = async () => {
    if (app.desktop.connection.state.phase !== 'connected')
      await app.desktop.connection.connect({ mode: 'remote', url: service.url, dashboardToken });
    await app.page
      .getByRole('status')
      .filter({ hasText: `Connected · ${service.url}` })
      .waitFor();
    return app.page;
  };
  afterAll(() => closeInOrder(app, renderer, service));

  it('refuses to send the dashboard token over http:// to another machine unless the user confirms, and says why', async () => {
    const { page } = app;
    await page.getByRole('radio', { name: /Connect to a service/ }).check();
    await page.getByLabel('Service address').fill('http://review.invalid:7411');
    await page.getByLabel('Dashboard token').fill(dashboardToken);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page
      .locator('#service-url-error')
      .getByText(/unencrypted/)
      .waitFor();
    expect(app.desktop.connection.state.phase).toBe('setup');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'connection-cleartext.png') });
    // Confirmed: the app does try (and finds nothing there).
    await page.getByLabel(/Send the token unencrypted/).check();
    await page.getByRole('button', { name: 'Connect' }).click();
    await page
      .locator('#service-url-error')
      .getByText(/Nothing answers at/)
      .waitFor({ timeout: 20_000 });
    // A loopback address needs no confirmation.
    await page.getByLabel('Service address').fill(service.url);
    await expect.poll(() => page.getByLabel(/Send the token unencrypted/).count()).toBe(0);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Connected · ${service.url}` })
      .waitFor();
  }, 30_000);

  it('keeps filters, loaded pages, the selection, a half-typed diff and the new secret across tab switches', async () => {
    const page = await connected();
    await page.getByLabel('Status').selectOption('completed');
    await expect.poll(() => rows(page).count()).toBe(25);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows(page).count()).toBeGreaterThan(25);
    const loaded = await rows(page).count();
    const chosen = rows(page).nth(30);
    const chosenId = await chosen.getAttribute('data-review-id');
    await chosen.click();
    await tab(page, 'Tokens');
    await tab(page, 'Reviews');
    expect(await page.getByLabel('Status').inputValue()).toBe('completed');
    expect(await rows(page).count()).toBe(loaded);
    expect(await selectedRowId(page)).toBe(chosenId);

    await page.getByRole('button', { name: 'New review' }).click();
    await page.getByRole('radio', { name: 'Paste a diff' }).check();
    await page.getByLabel('Unified diff').fill('diff --git a/half b/half\n--- a/half\n');
    await tab(page, 'Tokens');
    await page.getByLabel('Name').fill('CI on main');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.getByLabel("The new token's secret").inputValue();
    await tab(page, 'Reviews');
    expect(await page.getByLabel('Unified diff').inputValue()).toBe('diff --git a/half b/half\n--- a/half\n');
    await tab(page, 'Tokens');
    expect(await page.getByLabel("The new token's secret").inputValue()).toBe(secret);
    await page.getByRole('button', { name: 'Done' }).click();
    await tab(page, 'Reviews');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Status').selectOption('');
    await expect.poll(() => rows(page).count()).toBe(25);
  });

  it('offline: keeps what was loaded, marked stale, and after reconnecting restores the view', async () => {
    const page = await connected();
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows(page).count()).toBe(50);
    const chosenId = await rows(page).nth(40).getAttribute('data-review-id');
    await rows(page).nth(40).click();
    await page.locator('article.detail').waitFor();
    const port = Number(new URL(service.url).port);
    await service.close();
    await page.getByRole('status').filter({ hasText: 'Offline' }).waitFor();
    // Past the list's own refresh (10 s): the list stays, marked stale, and so do the tokens.
    await page.waitForTimeout(11_000);
    expect(await rows(page).count()).toBe(50);
    await staleNote(page).waitFor();
    await tab(page, 'Tokens');
    await page.locator('tr[data-token-id]').first().waitFor({ timeout: 2000 });
    await staleNote(page).waitFor();
    await tab(page, 'Reviews');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'offline-stale.png') });

    service = await start(port);
    await page
      .getByRole('status')
      .filter({ hasText: `Connected · ${service.url}` })
      .waitFor({ timeout: 10_000 });
    await staleNote(page).waitFor({ state: 'detached' });
    await page.waitForTimeout(500);
    expect(await rows(page).count()).toBe(50);
    expect(await selectedRowId(page)).toBe(chosenId);
  }, 40_000);

  it('"Change" asks first, and keeps the remote dashboard token for the next connect', async () => {
    const page = await connected();
    await page.getByRole('button', { name: 'Change' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Change the connection/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(app.desktop.connection.state.phase).toBe('connected');
    await page.getByRole('button', { name: 'Change' }).click();
    await dialog.getByRole('button', { name: 'Change connection' }).click();
    await page.getByRole('heading', { name: 'Connect to Diff Review' }).waitFor();
    await page.getByRole('radio', { name: /Connect to a service/ }).check();
    expect(await page.getByLabel('Service address').inputValue()).toBe(service.url);
    expect(await page.getByLabel('Dashboard token').inputValue()).toBe(''); // never handed to the renderer
    await page.getByText(/saved dashboard token/).waitFor();
    await page.getByRole('button', { name: 'Connect' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Connected · ${service.url}` })
      .waitFor();
  });
});

describe.skipIf(!chromiumPath && !inCI())('desktop renderer in Chromium: layout and rough edges (issue 14)', () => {
  let renderer: RendererBuild;
  let service: Service;
  let client: DiffReviewClient;
  let app: RendererHarness;

  beforeAll(async () => {
    const chromium = requireChromium(chromiumPath);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-layout-'));
    service = await createService({
      dataDir,
      logLevel: 'silent',
      concurrency: 2,
      workerFile: CONTROLLED_WORKER,
      rateLimits: { create: 10_000, read: 100_000, tokens: 10_000 },
    });
    const { dashboardToken, client: seeder } = await dashboardClients(service);
    client = seeder;
    // A review whose comment sits on a five-digit line, under the 74 others.
    const far = [
      'diff --git a/big.js b/big.js',
      '--- a/big.js',
      '+++ b/big.js',
      '@@ -12344,1 +12344,2 @@',
      ' const a = 1;',
      '+debugger;',
      '',
    ].join('\n');
    await client.createReview({ diff: far, repository: 'github.com/acme/far' });
    for (let i = 0; i < 74; i++)
      await client.createReview({
        diff: i === 5 ? 'THROW\n' : 'SLEEP 0\n',
        repository: 'github.com/acme/monorepo-service-with-a-long-name',
      });
    await settledReviews(() => allReviews(client), { timeoutMs: 20_000, intervalMs: 100 });
    ({ renderer, app } = await openRenderer(chromium));
    await app.desktop.connection.connect({ mode: 'remote', url: service.url, dashboardToken });
    await app.page
      .getByRole('status')
      .filter({ hasText: `Connected · ${service.url}` })
      .waitFor();
  }, 60_000);
  afterAll(() => closeInOrder(app, renderer, service));

  /** The element's box against the window: inside it, top to bottom? */
  const inView = async (page: Page, selector: string) => {
    const box = await page.locator(selector).boundingBox();
    const height = page.viewportSize()!.height;
    return !!box && box.y >= 0 && box.y < height - 40;
  };

  it('scrolls the list by itself and keeps the detail in view after pages of "Load more"', async () => {
    const { page } = app;
    await expect.poll(() => rows(page).count()).toBe(25);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows(page).count()).toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows(page).count()).toBe(75);
    await rows(page).nth(74).click();
    await page.locator('article.detail').waitFor();
    expect(await inView(page, 'article.detail')).toBe(true);
    expect(await inView(page, '.filters')).toBe(true); // the filters stay on top of the list
    expect(
      await page.locator('.list-pane').evaluate((el) => el.scrollHeight > el.clientHeight && el.scrollTop > 0),
    ).toBe(true);
  });

  it('under 900 px opens the detail as its own page, with a way back to the list', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      // The review selected before is shown as a page now; back to the list first.
      await page.getByRole('button', { name: /Back to the list/ }).click();
      const id = await rows(page).nth(3).getAttribute('data-review-id');
      await rows(page).nth(3).click();
      await page.locator('article.detail').waitFor();
      expect(await inView(page, 'article.detail')).toBe(true);
      expect(await page.locator('.list-pane').isVisible()).toBe(false);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'detail-narrow.png') });
      await page.getByRole('button', { name: /Back to the list/ }).click();
      await page.locator('.list-pane').waitFor();
      expect(await page.locator('article.detail').isVisible()).toBe(false);
      expect(await selectedRowId(page)).toBe(id);
      // "New review" too opens where it can be seen.
      await page.getByRole('button', { name: 'New review' }).click();
      expect(await inView(page, 'form.submit')).toBe(true);
      await page.getByRole('button', { name: /Back to the list/ }).click();
    } finally {
      await page.setViewportSize({ width: 1280, height: 820 });
    }
  });

  it('uses the width of a large window: no 1400 px cap, a wider list', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1920, height: 1080 });
    try {
      const split = await page.locator('.split').boundingBox();
      const list = await page.locator('.list-pane').boundingBox();
      expect(split!.width).toBeGreaterThan(1600);
      expect(list!.width).toBeGreaterThan(450);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'reviews-1920.png') });
    } finally {
      await page.setViewportSize({ width: 1280, height: 820 });
    }
  });

  it('says in the list why a review failed, and fits five-digit line numbers', async () => {
    const { page } = app;
    const failed = page.locator('.job-row', { hasText: 'Failed' }).first();
    await failed.waitFor();
    await failed.getByText('The service failed while reviewing').waitFor();
    await page.locator('.job-row', { hasText: 'github.com/acme/far' }).click();
    const line = page.locator('.comment-line').first();
    await line.getByText('L12345').waitFor();
    expect(await line.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const [lineBox, badgeBox] = [await line.boundingBox(), await page.locator('.comment .badge').first().boundingBox()];
    expect(lineBox!.x + lineBox!.width).toBeLessThanOrEqual(badgeBox!.x);
  });

  it('token names: at most 100 characters as the service allows, a duplicate name is warned, "Active tokens" leaves out expired ones', async () => {
    const { page } = app;
    await tab(page, 'Tokens');
    await page.locator('#token-name').fill('x'.repeat(150));
    expect(await page.locator('#token-name').inputValue()).toHaveLength(100);
    await page.locator('#token-name').fill('Seeder');
    await page.getByText(/already a token named/).waitFor();
    await page.locator('#token-name').fill('Seeder 2');
    await expect.poll(() => page.getByText(/already a token named/).count()).toBe(0);
    const rowsShown = await page.locator('tr[data-token-id]:not(.expired)').count();
    expect(await page.locator('#tokens-list-title .count').textContent()).toBe(String(rowsShown));
    await tab(page, 'Reviews');
  });

  it('refuses a diff over 1,000,000 bytes before submitting, saying so', async () => {
    const { page } = app;
    await tab(page, 'Reviews');
    await page.getByRole('button', { name: 'New review' }).click();
    await page.getByRole('radio', { name: 'Paste a diff' }).check();
    const before = (await allReviews(client)).length;
    await page.getByLabel('Unified diff').fill(`diff --git a/a b/a\n${'+'.repeat(1_000_001)}`);
    await page.locator('#diff-repository').fill('github.com/acme/big');
    await page
      .locator('#diff-error')
      .getByText(/1,000,000 bytes/)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Submit review' }).isDisabled()).toBe(true);
    expect((await allReviews(client)).length).toBe(before);
    await page.getByRole('button', { name: 'Cancel' }).click();
  });
});
