// Layer 1 of the desktop tests (see renderer.browser.test.ts), for issue 14: a big review from a
// folder on this machine (110 comments, real engine) read with the comment tools (severity and
// rule filters, collapse and expand all, next and previous finding, copy, Open in VS Code), and
// what the New review form refuses before submitting (text that is not a diff, an unusable
// folder), and a retry button wherever a message says to try again (a 429 on submit).
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../service/client/index.ts';
import { createService, type Service } from '../../service/index.ts';
import { git, makeRepo, type TestRepo } from '../support/git-repo.ts';
import { findChromium, inCI } from './support/chromium.ts';
import {
  closeInOrder,
  openRenderer,
  type RendererBuild,
  type RendererHarness,
  requireChromium,
  SCREENSHOTS,
} from './support/renderer-harness.ts';

const chromiumPath = findChromium();
const lines = (count: number, line: string) => `${Array.from({ length: count }, () => line).join('\n')}\n`;

/** No "try again" on the screen without a button that does it next to it. */
async function everyTryAgainHasAButton(page: Page) {
  const orphans = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.panel, .dialog, .field-error, .flash')]
      .filter((element) => element.offsetParent !== null && /try again/i.test(element.textContent ?? ''))
      .filter((element) => {
        const scope = element.closest('.panel, .dialog, form, .more') ?? element;
        return ![...scope.querySelectorAll('button')].some((b) => /try again/i.test(b.textContent ?? ''));
      })
      .map((element) => element.textContent),
  );
  expect(orphans).toEqual([]);
}

describe.skipIf(!chromiumPath && !inCI())(
  'desktop renderer in Chromium: big reviews and the New review form (issue 14)',
  () => {
    let renderer: RendererBuild;
    let service: Service;
    let app: RendererHarness;
    let repo: TestRepo;
    const detail = () => app.page.locator('article.detail');

    beforeAll(async () => {
      const chromium = requireChromium(chromiumPath);
      service = await createService({
        dataDir: mkdtempSync(path.join(os.tmpdir(), 'diff-review-tools-')),
        port: 0,
        logLevel: 'silent',
        // Three reviews a minute: the fourth submit is refused with 429.
        rateLimits: { create: 3, read: 100_000, tokens: 10_000 },
      });
      const dashboardToken = readFileSync(service.dashboardTokenFile!, 'utf8').trim();
      repo = makeRepo();
      repo.write('README.md', '# app\n');
      repo.commit('base');
      git(repo.dir, 'checkout', '-q', '-b', 'feature');
      repo.write('src/a.js', lines(40, 'debugger;'));
      repo.write('src/b.js', lines(40, 'console.log(value);'));
      repo.write('src/c.js', lines(30, 'eval(input);'));
      repo.commit('work');
      ({ renderer, app } = await openRenderer(chromium));
      await app.desktop.connection.connect({ mode: 'remote', url: service.url, dashboardToken });
      void createClient; // the app makes its own token
    }, 60_000);
    afterAll(async () => {
      await closeInOrder(app, renderer, service);
      repo?.cleanup();
    });

    it('refuses text that is not a diff at the field, before anything is sent', async () => {
      const { page } = app;
      await page.getByRole('button', { name: 'New review' }).click();
      await page.getByRole('radio', { name: 'Paste a diff' }).check();
      await page.getByLabel('Unified diff').fill('Please review my change to the login page, thanks!');
      await page.locator('#diff-repository').fill('github.com/acme/prose');
      await page
        .locator('#diff-error')
        .getByText(/Expected a unified diff/)
        .waitFor();
      expect(await page.getByRole('button', { name: 'Submit review' }).isDisabled()).toBe(true);
      await page.getByLabel('Unified diff').fill('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n a\n+b\n');
      await page.locator('#diff-error').waitFor({ state: 'detached' });
      expect(await page.getByRole('button', { name: 'Submit review' }).isDisabled()).toBe(false);
      expect((await app.desktop.connection.withReviews((c) => c.listReviews())).reviews).toEqual([]);
    });

    it('refuses a folder that is not a git repository when it is picked, with the reason', async () => {
      const { page } = app;
      await page.getByRole('radio', { name: 'Local git folder' }).check();
      app.nextFolder = mkdtempSync(path.join(os.tmpdir(), 'diff-review-plain-'));
      await page.getByRole('button', { name: 'Choose folder…' }).click();
      await page
        .locator('#folder-error')
        .getByText(/not .*git repository/i)
        .waitFor();
      expect(await page.getByRole('button', { name: 'Submit review' }).isDisabled()).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'submit-plain-folder.png') });
      // The repository: checked, summed up, and Submit is possible.
      app.nextFolder = repo.dir;
      await page.getByRole('button', { name: 'Choose folder…' }).click();
      await page
        .locator('#folder-summary')
        .getByText(/against main/)
        .waitFor();
      expect(await page.getByRole('button', { name: 'Submit review' }).isDisabled()).toBe(false);
      // A base branch that does not exist: refused before submitting.
      await page.locator('#base-branch').fill('no-such-branch');
      await page.locator('#folder-error').waitFor();
      expect(await page.getByRole('button', { name: 'Submit review' }).isDisabled()).toBe(true);
      await page.locator('#base-branch').fill('');
      await page.locator('#folder-summary').waitFor();
      expect((await app.desktop.connection.withReviews((c) => c.listReviews())).reviews).toEqual([]);
    });

    it('reads a 110-comment review: severity and rule filters, collapse, next finding, copy, Open in VS Code', async () => {
      const { page } = app;
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.getByRole('button', { name: 'Submit review' }).click();
      await detail().locator('.badge', { hasText: 'Completed' }).first().waitFor({ timeout: 20_000 });
      const comments = detail().locator('.comment:not(.folded)');
      await detail().getByRole('heading', { name: '110 comments in 3 files' }).waitFor();
      // A rule past 5 findings in a file is folded into one entry (issue 26), shown when asked.
      const folds = detail().locator('.comment.folded');
      await expect.poll(() => folds.count()).toBeGreaterThan(0);
      expect(await comments.count()).toBeLessThan(110);
      while ((await folds.count()) > 0) await folds.first().getByRole('button', { name: 'Show them' }).click();
      await expect.poll(() => comments.count()).toBe(110);

      // Severity toggles: warnings (no-debugger, no-eval) off leaves the info ones (no-console-log).
      await detail()
        .getByRole('button', { name: /^Warnings/ })
        .click();
      await expect.poll(() => comments.count()).toBe(40);
      await detail().getByRole('heading', { name: '40 of 110 comments in 1 file' }).waitFor();
      await detail()
        .getByRole('button', { name: /^Warnings/ })
        .click();
      // One rule.
      await detail().getByLabel('Rule').selectOption('no-console-log');
      await expect.poll(() => comments.count()).toBe(40);
      expect(new Set(await detail().locator('.comment .rule').allTextContents())).toEqual(new Set(['no-console-log']));
      await detail().getByLabel('Rule').selectOption('');

      // Collapse all, expand all.
      await detail().getByRole('button', { name: 'Collapse all' }).click();
      await expect.poll(() => detail().locator('details.file[open]').count()).toBe(0);
      await detail().getByRole('button', { name: 'Expand all' }).click();
      await expect.poll(() => detail().locator('details.file[open]').count()).toBe(3);

      // Next and previous finding: the focus moves, a collapsed file opens for it.
      await detail().getByRole('button', { name: 'Collapse all' }).click();
      await detail()
        .getByRole('button', { name: /Next finding/ })
        .click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('finding-0');
      await detail()
        .getByRole('button', { name: /Next finding/ })
        .click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('finding-1');
      await detail().getByText('Finding 2 of 110').waitFor();
      await detail()
        .getByRole('button', { name: /Previous finding/ })
        .click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('finding-0');
      await detail().getByRole('button', { name: 'Expand all' }).click();

      // The flagged line's code, read from the folder.
      await expect.poll(() => detail().locator('.comment-code').count()).toBe(110);
      expect(new Set(await detail().locator('.comment-code').allTextContents())).toEqual(
        new Set(['debugger;', 'console.log(value);', 'eval(input);']),
      );

      // Copy one finding; open one in VS Code, at its file and line in the chosen folder.
      const first = detail().locator('#finding-0');
      const [file, line] = [
        await first.evaluate((el) => el.closest('details')!.querySelector('.file-path')!.textContent),
        1,
      ];
      await first.getByRole('button', { name: /^Copy the finding/ }).click();
      await expect.poll(() => app.clipboard.at(-1)).toMatch(new RegExp(`^${file}:${line} (error|warning|info) `));
      await first.getByRole('button', { name: /in VS Code$/ }).click();
      const root = realpathSync(repo.dir).split(path.sep).join('/');
      await expect.poll(() => app.opened).toEqual([`vscode://file${root}/${file}:${line}`]);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'review-tools-1920-light.png') });
      await everyTryAgainHasAButton(page);
    });

    it('a refused submit (429) says to try again, next to a button that does', async () => {
      const { page } = app;
      const diff = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n a\n+b\n';
      // Use up the minute's allowance (the folder review above was one).
      await app.desktop.connection.withReviews((c) => c.createReview({ diff, repository: 'github.com/acme/x' }));
      await app.desktop.connection.withReviews((c) => c.createReview({ diff, repository: 'github.com/acme/x' }));
      await page.getByRole('button', { name: 'New review' }).click();
      await page.getByRole('radio', { name: 'Paste a diff' }).check();
      await page.getByLabel('Unified diff').fill(diff);
      await page.locator('#diff-repository').fill('github.com/acme/limited');
      await page.getByRole('button', { name: 'Submit review' }).click();
      const panel = page.locator('form.submit .panel-error');
      await panel.getByText(/too many requests right now\. Try again in \d+ seconds?\./).waitFor();
      // Its button counts down to the time the service gave (Retry-After), then tries again.
      const retry = panel.getByRole('button', { name: /^Try again/ });
      expect(await retry.textContent()).toMatch(/^Try again \(in \d+ s\)$/);
      expect(await retry.getAttribute('aria-disabled')).toBe('true');
      await everyTryAgainHasAButton(page);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'submit-rate-limited.png') });
    });

    it("carries out the application menu's commands sent by main", async () => {
      const { page } = app;
      const menu = (command: string) =>
        page.evaluate(
          (c) =>
            (window as unknown as { __diffReviewEmit(e: string, p: unknown): void }).__diffReviewEmit(
              'menu:command',
              c,
            ),
          command,
        );
      await menu('show-tokens');
      await expect.poll(() => page.getByRole('tab', { name: 'Tokens' }).getAttribute('aria-selected')).toBe('true');
      await menu('new-review');
      await expect.poll(() => page.getByRole('tab', { name: 'Reviews' }).getAttribute('aria-selected')).toBe('true');
      await page.getByRole('heading', { name: 'New review' }).waitFor();
      await menu('focus-search');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('filter-text');
      await menu('next-review');
      await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('job-row'))).toBe(true);
      await menu('open-review');
      await page.locator('.job-row[aria-current="true"]').waitFor();
    });
  },
);
