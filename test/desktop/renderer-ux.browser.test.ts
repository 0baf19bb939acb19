// Layer 1 of the desktop tests, continued (see renderer.browser.test.ts): the dashboard against a
// REAL service with many reviews and a one-reviewer queue: cancelling a queued job, "Load more",
// the filters; keyboard use; the accessibility tree; colour contrast in both themes; screenshots
// of the first start and of a refused dashboard token.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiffReviewClient } from '../../service/client/index.ts';
import { createService, type Service } from '../../service/index.ts';
import { allReviews } from '../support/all-reviews.ts';
import { settledReviews } from '../support/settled-review.ts';
import { TestClock } from '../support/test-clock.ts';
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
import { lowContrastText, unlabelledControls } from './support/a11y.ts';

const CONTROLLED_WORKER = new URL('../fixtures/workers/controlled-worker.ts', import.meta.url);
const chromiumPath = findChromium();

// 76 quick reviews in two repositories and 4 failing ones: four pages of 25 in the app.
const ALPHA = 'github.com/acme/alpha';
const BETA = 'github.com/acme/beta';
const SEEDED = 80;

async function connectRemote(page: Page, url: string, dashboardToken: string) {
  await page.getByRole('radio', { name: /Connect to a service/ }).check();
  await page.getByLabel('Service address').fill(url);
  await page.getByLabel('Dashboard token').fill(dashboardToken);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `Connected · ${url}` })
    .waitFor();
}

/** The review ids in the list, top to bottom. */
const listedIds = (page: Page) =>
  page.locator('.job-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-review-id')!));

/** What has the keyboard focus, in words. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    const role = el.getAttribute('role') ?? el.tagName.toLowerCase();
    const name =
      el.getAttribute('aria-label') ??
      (el.id && ['input', 'select', 'textarea'].includes(el.tagName.toLowerCase())
        ? `#${el.id}`
        : el.textContent?.trim());
    return `${role}:${name}`;
  });

async function expectAccessible(page: Page, screen: string) {
  expect(await unlabelledControls(page), `${screen}: controls without an accessible name`).toEqual([]);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await lowContrastText(page), `${screen} (${scheme}): text below WCAG AA contrast`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.skipIf(!chromiumPath && !inCI())(
  'desktop renderer in Chromium: queue, pages, filters, keyboard, accessibility',
  () => {
    let renderer: RendererBuild;
    let service: Service;
    let dashboardToken: string;
    let client: DiffReviewClient;
    let admin: DiffReviewClient;
    let app: RendererHarness;
    // The service's clock, to make a token that has already expired.
    const clock = new TestClock();

    beforeAll(async () => {
      const chromium = requireChromium(chromiumPath);
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-ux-'));
      service = await createService({
        dataDir,
        logLevel: 'silent',
        concurrency: 1,
        workerFile: CONTROLLED_WORKER,
        clock,
        rateLimits: { create: 10_000, read: 100_000, tokens: 10_000 },
      });
      ({ dashboardToken, admin, client } = await dashboardClients(service, {
        scopes: ['reviews:read', 'reviews:write'],
      }));
      for (let i = 0; i < SEEDED; i++) {
        const failing = i % 20 === 7;
        await client.createReview({ diff: failing ? 'THROW\n' : 'SLEEP 0\n', repository: i % 2 ? BETA : ALPHA });
      }
      await settledReviews(() => allReviews(client), { timeoutMs: 20_000, intervalMs: 100 });
      ({ renderer, app } = await openRenderer(chromium));
    }, 60_000);
    afterAll(() => closeInOrder(app, renderer, service));

    it('shows the first start and a refused dashboard token clearly (screenshots), accessibly', async () => {
      const { page } = app;
      await page.getByRole('heading', { name: 'Connect to Diff Review' }).waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, 'connection-first-start.png') });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'connection-first-start-dark.png') });
      await page.emulateMedia({ colorScheme: 'light' });
      await expectAccessible(page, 'setup, built-in');

      await page.getByRole('radio', { name: /Connect to a service/ }).check();
      await page.getByLabel('Service address').fill(service.url);
      await page.getByLabel('Dashboard token').fill('not-the-dashboard-token-but-long-enough-1234');
      await page.getByRole('button', { name: 'Connect' }).click();
      await page
        .locator('#dashboard-token-error')
        .getByText(/refused this dashboard token/)
        .waitFor();
      expect(await page.getByLabel('Dashboard token').getAttribute('aria-invalid')).toBe('true');
      expect(app.desktop.connection.state.phase).toBe('setup');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'connection-bad-token.png') });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'connection-bad-token-dark.png') });
      await page.emulateMedia({ colorScheme: 'light' });
      await expectAccessible(page, 'setup, remote with an error');
      // The error is tied to its field for screen readers.
      expect(await page.getByLabel('Dashboard token').getAttribute('aria-describedby')).toContain(
        'dashboard-token-error',
      );

      await connectRemote(page, service.url, dashboardToken);
    });

    it('pages through the reviews with "Load more": newest first, no duplicates', async () => {
      const { page } = app;
      const expected = (await allReviews(client)).map((job) => job.review_id);
      expect(expected.length).toBeGreaterThan(75);
      expect([...expected].sort().reverse()).toEqual(expected); // ids sort by creation time
      await page.locator('.job-row').first().waitFor();
      await expect.poll(() => page.locator('.job-row').count()).toBe(25);
      const more = page.getByRole('button', { name: 'Load more' });
      await more.click();
      await expect.poll(() => page.locator('.job-row').count()).toBe(50);
      // From the keyboard, the focus stays on the button while pages remain…
      await more.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.job-row').count()).toBe(75);
      expect(await focused(page)).toBe('button:Load more');
      // …and on the last page, where the button goes away, it moves to the first new job.
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.job-row').count()).toBe(expected.length);
      await more.waitFor({ state: 'detached' }); // the last page has no cursor
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-review-id')))
        .toBe(expected[75]);
      const ids = await listedIds(page);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expected);
      const created = await page
        .locator('.job-row')
        .evaluateAll((rows) => rows.map((row) => row.querySelector('[title]')!.getAttribute('title')!));
      expect(created).toHaveLength(expected.length);
    });

    it('filters by status and by repository, together and apart, with paging', async () => {
      const { page } = app;
      const failed = await allReviews(client, { status: 'failed' });
      expect(failed.length).toBeGreaterThanOrEqual(3);
      await page.getByLabel('Status').selectOption('failed');
      await expect.poll(() => listedIds(page)).toEqual(failed.map((job) => job.review_id));
      expect(await page.locator('.job-row .badge').allTextContents()).toEqual(failed.map(() => 'Failed'));
      // A failed job's detail says why, in words, with the service's code.
      await page.locator('.job-row').first().click();
      const problem = page.locator('article.detail .panel-error');
      await problem.getByText('The service failed while reviewing').waitFor();
      expect(await problem.textContent()).toContain(failed[0]!.error!.code);
      expect(failed[0]!.error!.code).toBe('internal_error');

      await page.getByLabel('Status').selectOption('');
      const beta = await allReviews(client, { repository: BETA });
      // Part of the name, in another case: every page is loaded and searched, no "Load more".
      await page.getByLabel('Repository', { exact: true }).fill(BETA.slice(-7).toUpperCase());
      await expect.poll(() => listedIds(page)).toEqual(beta.map((job) => job.review_id));
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      expect(new Set(await page.locator('.job-repo').allTextContents())).toEqual(new Set([BETA]));

      const betaFailed = await allReviews(client, { repository: BETA, status: 'failed' });
      await page.getByLabel('Status').selectOption('failed');
      await expect.poll(() => listedIds(page)).toEqual(betaFailed.map((job) => job.review_id));

      await page.getByLabel('Status').selectOption('completed');
      await page.getByLabel('Repository', { exact: true }).fill('github.com/acme/none');
      await page.getByText('No reviews match these filters').waitFor();
      await page.getByRole('button', { name: 'Clear the filters' }).click();
      expect(await page.getByLabel('Status').inputValue()).toBe('');
      expect(await page.getByLabel('Repository', { exact: true }).inputValue()).toBe('');
      // Every review stays loaded (the search loaded them all): no second trip for the same list.
      await expect.poll(() => page.locator('.job-row').count()).toBe(SEEDED);
    });

    it('lists each token with its prefix, scopes, dates and last use, and marks expired ones', async () => {
      const { page } = app;
      clock.offset = -8 * 24 * 3600 * 1000; // created eight days ago, for seven days
      const old = await admin.createToken({ name: 'Old deploy key', scopes: ['reviews:read'], expires_in_days: 7 });
      clock.offset = 0;
      await page.getByRole('tab', { name: 'Tokens' }).click();
      const row = page.getByRole('row', { name: /Old deploy key/ });
      await row.waitFor();
      expect(await row.getAttribute('class')).toContain('expired');
      await row.locator('.badge', { hasText: 'Expired' }).waitFor();
      const cells = await row.locator('td').allTextContents();
      expect(cells[0]).toBe(`${old.prefix}…`);
      expect(cells[1]).toBe('reviews:read');
      expect(cells[3]).toMatch(/^Expired /);
      expect(cells[4]).toBe('Never');
      // A token in use shows when it was last used.
      const seeder = page.getByRole('row', { name: /Seeder/ });
      expect(await seeder.locator('td').nth(4).textContent()).toMatch(/ago|just now/);
      expect(await seeder.locator('.badge', { hasText: 'Expired' }).count()).toBe(0);

      // The expiry choices, and a read-only token that never expires, as the service records it.
      expect(await page.getByLabel('Expires after').locator('option').allTextContents()).toEqual([
        '7 days',
        '30 days',
        '90 days',
        '365 days',
        'Never',
      ]);
      await page.getByLabel('Name').fill('Read-only forever');
      await page.getByRole('checkbox', { name: /reviews:write/ }).uncheck();
      await page.getByLabel('Expires after').selectOption('never');
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.getByText('you will not see this token again').waitFor();
      await page.getByRole('button', { name: 'Done' }).click();
      const forever = page.getByRole('row', { name: /Read-only forever/ });
      expect((await forever.locator('td').allTextContents()).slice(1, 4)).toEqual([
        'reviews:read',
        expect.any(String),
        'Never',
      ]);
      const record = (await admin.listTokens()).tokens.find((token) => token.name === 'Read-only forever');
      expect(record).toMatchObject({ scopes: ['reviews:read'], expires_at: null });
      await page.getByRole('tab', { name: 'Reviews' }).click();
    });

    it('cancels a queued job while another one runs', async () => {
      const { page } = app;
      const submit = async (diff: string) => {
        await app.submitThroughApp(diff, 'github.com/acme/queue');
        const detail = page.locator('article.detail');
        await detail.waitFor();
        return detail;
      };
      const first = await submit('SLEEP 15000\n');
      await first.locator('.badge', { hasText: 'Running' }).first().waitFor();
      const firstId = await page.locator('.job-row.selected').getAttribute('data-review-id');

      const second = await submit('SLEEP 0\n');
      await second.locator('.badge', { hasText: 'Queued' }).first().waitFor();
      await second.getByText('Waiting for a free reviewer…').waitFor();
      const secondId = (await page.locator('.job-row.selected').getAttribute('data-review-id'))!;
      expect(secondId).not.toBe(firstId);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-queued.png') });

      await second.getByRole('button', { name: 'Cancel review' }).click();
      await second.locator('.badge', { hasText: 'Cancelled' }).first().waitFor();
      await second.getByText('Stopped on request').waitFor();
      const cancelled = await client.getReview(secondId);
      expect(cancelled).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
      expect(cancelled.started_at ?? null).toBeNull(); // it never ran
      // The list row follows, and the running job was left alone.
      await page.locator(`.job-row[data-review-id="${secondId}"] .badge`, { hasText: 'Cancelled' }).waitFor();
      expect((await client.getReview(firstId!)).status).toBe('running');
      await client.cancelReview(firstId!);
    });

    it('works from the keyboard: tab order, arrow keys between tabs, Enter and Space, Escape in the dialog', async () => {
      const { page } = app;
      await page.getByRole('tab', { name: 'Reviews' }).click();
      await page.locator('.job-row').first().waitFor();
      // Clicking the (unfocusable) title moves the start of keyboard navigation to the top.
      await page.locator('h1.brand').click();
      const order: string[] = [];
      for (let i = 0; i < 11; i++) {
        await page.keyboard.press('Tab');
        order.push(await focused(page));
      }
      order.splice(1, 1, ...(order[1] === "button:Copy the service's address" ? [] : ['missing: copy address']));
      expect(order.slice(0, 8)).toEqual([
        'tab:Reviews',
        'button:Change',
        'button:New review',
        'input:#filter-text',
        'select:#filter-status',
        'input:#filter-repository',
        'select:#filter-sort',
        'input:#filter-group',
      ]);
      // The whole list is one tab stop: the next Tab leaves it ("Load more").
      expect(order[8]).toMatch(/^button:(Queued|Running|Completed|Failed|Cancelled)/);
      expect(order[9]).not.toMatch(/^button:(Queued|Running|Completed|Failed|Cancelled)/);
      // Shift+Tab walks back.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      expect(await focused(page)).toBe('input:#filter-group');

      // The tabs follow the ARIA tabs pattern: one tab stop, arrows move and select.
      await page.getByRole('tab', { name: 'Reviews' }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await focused(page)).toBe('tab:Tokens');
      expect(await page.getByRole('tab', { name: 'Tokens' }).getAttribute('aria-selected')).toBe('true');
      await page.getByRole('heading', { name: 'Review API tokens' }).waitFor();
      expect(await page.getByRole('tab', { name: 'Reviews' }).getAttribute('tabindex')).toBe('-1');
      await page.keyboard.press('ArrowRight'); // wraps around
      expect(await focused(page)).toBe('tab:Reviews');
      await page.keyboard.press('End');
      expect(await focused(page)).toBe('tab:Tokens');
      await page.keyboard.press('Home');
      expect(await focused(page)).toBe('tab:Reviews');
      await page.keyboard.press('ArrowLeft');
      expect(await focused(page)).toBe('tab:Tokens');
      expect(await page.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('tab-tokens');

      // Create a token from the keyboard alone: type, Tab to the button, Enter.
      await page.getByLabel('Name').focus();
      await page.keyboard.type('Keyboard token');
      await page.getByRole('button', { name: 'Create token' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('you will not see this token again').waitFor();
      // Focus lands on Copy, so Enter copies at once.
      expect(await focused(page)).toBe('button:Copy');
      await page.keyboard.press('Enter');
      await page.getByText('Copied to the clipboard').waitFor();
      await page.getByRole('button', { name: 'Done' }).focus();
      await page.keyboard.press('Space');
      await page.getByRole('heading', { name: 'Create a token' }).waitFor();

      // Revoke: Space opens the confirmation, focus moves into it, Escape closes it and focus returns.
      const revoke = page.getByRole('button', { name: 'Revoke Keyboard token' });
      await revoke.focus();
      await page.keyboard.press('Space');
      const dialog = page.getByRole('dialog', { name: 'Revoke “Keyboard token”?' });
      await dialog.waitFor();
      expect(await focused(page)).toBe('button:Cancel');
      expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => focused(page)).toBe('button:Revoke Keyboard token');

      // Enter opens it again; Tab reaches the confirm button and Enter revokes.
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('button:Revoke token');
      await page.keyboard.press('Enter');
      await page.getByRole('row', { name: /Keyboard token/ }).waitFor({ state: 'detached' });
      // The row's button is gone: focus moves to the list's heading instead of being lost.
      await expect.poll(() => focused(page)).toMatch(/^h3:Active tokens/);
    });

    it('names every control and keeps text readable in both themes, on every screen', async () => {
      const { page } = app;
      // Tokens, with a fresh secret on screen.
      await page.getByRole('tab', { name: 'Tokens' }).click();
      await page.getByLabel('Name').fill('A11y token');
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.getByText('you will not see this token again').waitFor();
      await expectAccessible(page, 'tokens with a new secret');
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('button', { name: 'Revoke A11y token' }).click();
      await page.getByRole('dialog').waitFor();
      await expectAccessible(page, 'revoke confirmation');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'revoke-dialog-dark.png') });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.keyboard.press('Escape');

      // Reviews: a completed job's detail, a failed one's, and the two submit forms.
      await page.getByRole('tab', { name: 'Reviews' }).click();
      await page.locator('.job-row', { hasText: 'Completed' }).first().click();
      await page.locator('article.detail').getByText('No comments').waitFor();
      // Its timestamps and durations.
      const timeline = page.locator('article.detail dl.timeline');
      expect(await timeline.locator('dt').allTextContents()).toEqual([
        'Submitted',
        'Waited',
        'Started',
        'Ran',
        'Completed',
        'Total',
      ]);
      const values = await timeline.locator('dd').allTextContents();
      expect(values.filter((v) => v === '—')).toEqual([]);
      expect(values[1]).toMatch(/^\d+(\.\d+)? (s|ms|min)/);
      await expectAccessible(page, 'reviews, completed detail');
      await page.getByLabel('Status').selectOption('failed');
      await page.locator('.job-row', { hasText: 'Failed' }).first().click();
      await page.locator('article.detail .panel').first().waitFor();
      await expectAccessible(page, 'reviews, failed detail');
      await page.getByRole('button', { name: 'New review' }).click();
      await expectAccessible(page, 'submit a folder');
      await page.getByRole('radio', { name: 'Paste a diff' }).check();
      await expectAccessible(page, 'submit a diff');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'submit-dark.png') });
      await page.emulateMedia({ colorScheme: 'light' });
    });
  },
);
