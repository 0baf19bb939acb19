// Layer 1 of the desktop tests (see renderer.browser.test.ts), for issue 14's bulk actions:
// cancel every queued review, run a failed review again (the app holds its diff), save the SARIF
// log to a file through the save dialog. A REAL service with the controlled worker, one reviewer.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiffReviewClient } from '../../service/client/index.ts';
import { createService, type Service } from '../../service/index.ts';
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

describe.skipIf(!chromiumPath && !inCI())('desktop renderer in Chromium: bulk actions (issue 14)', () => {
  let renderer: RendererBuild;
  let service: Service;
  let client: DiffReviewClient;
  let app: RendererHarness;
  const detail = () => app.page.locator('article.detail');

  beforeAll(async () => {
    const chromium = requireChromium(chromiumPath);
    service = await createService({
      dataDir: mkdtempSync(path.join(os.tmpdir(), 'diff-review-bulk-')),
      port: 0,
      logLevel: 'silent',
      concurrency: 1,
      workerFile: CONTROLLED_WORKER,
    });
    const { dashboardToken, client: seeder } = await dashboardClients(service);
    client = seeder;
    ({ renderer, app } = await openRenderer(chromium));
    await app.desktop.connection.connect({ mode: 'remote', url: service.url, dashboardToken });
    await app.page.getByRole('heading', { name: 'Reviews' }).waitFor();
  }, 60_000);
  afterAll(() => closeInOrder(app, renderer, service));

  it('cancels every queued review after asking, and leaves the running one alone', async () => {
    const { page } = app;
    const running = await app.submitThroughApp('SLEEP 45000\n', 'github.com/acme/bulk');
    await detail().locator('.badge', { hasText: 'Running' }).first().waitFor();
    // Three queued behind it: two made by the app, one by another tool (CI).
    await app.submitThroughApp('SLEEP 0\n', 'github.com/acme/bulk');
    await app.submitThroughApp('SLEEP 0\n', 'github.com/acme/bulk');
    const elsewhere = await client.createReview({ diff: 'SLEEP 0\n', repository: 'github.com/acme/ci' });
    await page.getByRole('button', { name: 'Cancel all queued' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel every queued review?' });
    await dialog.getByRole('button', { name: 'Cancel queued reviews' }).click();
    await page.getByText('Cancelled 3 queued reviews').waitFor();
    expect((await client.getReview(elsewhere.review_id)).error?.code).toBe('cancelled');
    expect((await client.getReview(running)).status).toBe('running');
    await expect
      .poll(() => page.locator('.job-row .badge', { hasText: 'Cancelled' }).count())
      .toBeGreaterThanOrEqual(2);
    await page.getByRole('button', { name: 'Cancel all queued' }).waitFor({ state: 'detached' });
    // Frees the one worker for the next test; on a slow machine the review may have ended by now.
    if ((await client.getReview(running)).status === 'running') await client.cancelReview(running);
  });

  it('runs a failed review again with the diff the app submitted', async () => {
    const failed = await app.submitThroughApp('THROW\n', 'github.com/acme/flaky');
    await detail().getByText('The service failed while reviewing').waitFor();
    await detail().getByRole('button', { name: 'Run again' }).click();
    await expect
      .poll(() => app.page.locator('.job-row[aria-current="true"]').getAttribute('data-review-id'))
      .not.toBe(failed);
    const again = (await app.page.locator('.job-row[aria-current="true"]').getAttribute('data-review-id'))!;
    await detail().locator('.badge', { hasText: 'Failed' }).first().waitFor();
    expect((await client.getReview(again)).repository).toBe('github.com/acme/flaky');
    // A review made elsewhere: the app never had its diff, so it offers no "Run again".
    const other = await client.createReview({ diff: 'THROW\n', repository: 'github.com/acme/ci' });
    await expect.poll(async () => (await client.getReview(other.review_id)).status).toBe('failed');
    await app.page.locator(`.job-row[data-review-id="${other.review_id}"]`).click();
    await detail().getByText(other.review_id).waitFor();
    await detail().getByText('The service failed while reviewing').waitFor();
    await expect
      .poll(() =>
        app.desktop.router.dispatch('reviews:localInfo', { url: renderer.rendererUrl, parent: null }, [
          other.review_id,
        ]),
      )
      .toEqual({ ok: true, value: { folder: null, canRerun: false } });
    expect(await detail().getByRole('button', { name: 'Run again' }).count()).toBe(0);
  });

  it('saves the SARIF log to the file chosen in the save dialog', async () => {
    const done = await app.submitThroughApp('SLEEP 0\n', 'github.com/acme/sarif');
    await detail().locator('.badge', { hasText: 'Completed' }).first().waitFor();
    app.nextSaveFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'diff-review-save-')), `${done}.sarif`);
    await detail().getByRole('button', { name: 'Save SARIF…' }).click();
    await detail().getByText(`Saved to ${app.nextSaveFile}`).waitFor();
    const sarif = JSON.parse(readFileSync(app.nextSaveFile, 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    // Cancelled in the dialog: nothing is written, nothing is said.
    app.nextSaveFile = undefined;
    await detail().getByRole('button', { name: 'Save SARIF…' }).click();
    await app.page.screenshot({ path: path.join(SCREENSHOTS, 'bulk-saved-sarif.png') });
  });

  it('keeps a half-typed diff when a review is opened meanwhile (issue 14, E24)', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'New review' }).click();
    await page.getByRole('radio', { name: 'Paste a diff' }).check();
    await page.getByLabel('Unified diff').fill('diff --git a/half b/half\n--- a/half\n');
    await page.locator('.job-row').first().click();
    await detail().waitFor();
    await page.getByRole('button', { name: 'New review' }).click();
    expect(await page.getByLabel('Unified diff').inputValue()).toBe('diff --git a/half b/half\n--- a/half\n');
  });
});
