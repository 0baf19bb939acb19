// Layer 1 of the desktop tests (see shared/TESTING.md): the renderer bundle in Debian's Chromium,
// its preload replaced by a shim over the SAME main-process code, against REAL services.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../service/client/index.ts';
import { createService, type Service } from '../../service/index.ts';
import { findChromium, inCI, MISSING_CHROMIUM } from './support/chromium.ts';
import {
  closeInOrder,
  launchRenderer,
  openApp,
  type RendererBuild,
  type RendererHarness,
  requireChromium,
  SCREENSHOTS,
} from './support/renderer-harness.ts';

const SAMPLE_DIFF = [
  'diff --git a/src/math.js b/src/math.js',
  '--- a/src/math.js',
  '+++ b/src/math.js',
  '@@ -1,3 +1,6 @@',
  ' export function add(a, b) {',
  '+  debugger;',
  '+  console.log("adding", a, b);',
  '+  // TODO: handle overflow',
  '   return a + b;',
  ' }',
  'diff --git a/src/app.test.js b/src/app.test.js',
  '--- a/src/app.test.js',
  '+++ b/src/app.test.js',
  '@@ -1,2 +1,3 @@',
  " import { add } from './math.js';",
  "+it.only('adds', () => expect(add(1, 2)).toBe(3));",
  " it('adds again', () => expect(add(2, 2)).toBe(4));",
  '',
].join('\n');

/** A repository on branch feature, one commit ahead of main. */
function makeRepository(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-repo-'));
  const env = {
    ...process.env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'T',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 'T',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(dir, 'feature.js'), 'export const a = 1;\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  git('checkout', '-q', '-b', 'feature');
  writeFileSync(path.join(dir, 'feature.js'), 'export const a = 1;\ndebugger;\n');
  git('commit', '-q', '-am', 'feature');
  return dir;
}

const CONTROLLED_WORKER = new URL('../fixtures/workers/controlled-worker.ts', import.meta.url);

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const chromiumPath = findChromium();
if (!chromiumPath && !inCI()) console.warn(MISSING_CHROMIUM);

describe.skipIf(!chromiumPath && !inCI())('desktop renderer in Chromium', () => {
  let renderer: RendererBuild;

  beforeAll(async () => {
    renderer = await launchRenderer(requireChromium(chromiumPath));
  });
  afterAll(async () => renderer?.close());

  describe('with the built-in service', () => {
    let app: RendererHarness;
    beforeAll(async () => {
      app = await openApp(renderer);
    });
    afterAll(async () => app?.close());

    it('starts at setup and connects to the built-in service with one click', async () => {
      const { page } = app;
      await page.getByRole('heading', { name: 'Connect to Diff Review' }).waitFor();
      await page.getByRole('button', { name: 'Start the built-in service' }).click();
      await page.getByRole('status').filter({ hasText: 'Connected · Built-in service' }).waitFor();
      expect(app.desktop.connection.state.phase).toBe('connected');
      // Its address is shown and copyable, for the CLI and the extension.
      const { url } = app.desktop.connection.state as { url: string };
      await page
        .getByRole('status')
        .filter({ hasText: `Built-in service at ${url}` })
        .waitFor();
      await page.getByRole('button', { name: "Copy the service's address" }).click();
      await expect.poll(() => app.clipboard.at(-1)).toBe(url);
    });

    it('creates a token, shows its secret exactly once, lists it, and revokes it', async () => {
      const { page } = app;
      await page.getByRole('tab', { name: 'Tokens' }).click();
      // The app's own review token is listed under a clear name.
      const appRow = page.getByRole('row', { name: /Desktop dashboard/ });
      await appRow.getByText('Used by this app').waitFor();

      // A refused name is shown next to its field (the field itself stops at the service's 100 characters).
      await page.getByLabel('Name').fill('   ');
      await page.getByRole('button', { name: 'Create token' }).click();
      const nameError = page.locator('#token-name-error');
      await nameError.waitFor();
      expect(await nameError.textContent()).toMatch(/name/i);
      expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');

      await page.getByLabel('Name').fill('CI on main');
      await page.getByLabel('Expires after').selectOption('30');
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.getByText('you will not see this token again').waitFor();
      const secret = await page.getByLabel("The new token's secret").inputValue();
      expect(secret).toMatch(/^drv_[0-9A-Za-z]{38,}$/);
      const row = page.getByRole('row', { name: /CI on main/ });
      await row.waitFor();
      expect(await row.textContent()).toContain(secret.slice(0, 8));
      // The secret works against the real service.
      const service = app.desktop.connection.state;
      if (service.phase !== 'connected') throw new Error('not connected');
      await createClient({ baseUrl: service.url, token: secret, retry: 0 }).listReviews({ limit: 1 });

      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      await page.getByText('Copied to the clipboard').waitFor();
      expect(app.clipboard.at(-1)).toBe(secret);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'token-manager.png') });

      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('heading', { name: 'Create a token' }).waitFor();
      expect(await page.content()).not.toContain(secret);
      // …and it never comes back: a fresh list has only the prefix.
      await page.getByRole('tab', { name: 'Reviews' }).click();
      await page.getByRole('tab', { name: 'Tokens' }).click();
      await row.waitFor();
      expect(await page.content()).not.toContain(secret);

      await row.getByRole('button', { name: 'Revoke CI on main' }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke “CI on main”?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row.getByRole('button', { name: 'Revoke CI on main' }).click();
      await dialog.getByRole('button', { name: 'Revoke token' }).click();
      await row.waitFor({ state: 'detached' });
      await expect(createClient({ baseUrl: service.url, token: secret, retry: 0 }).listReviews()).rejects.toMatchObject(
        { status: 401 },
      );
    });

    it('submits a pasted diff and shows the completed review with its comments grouped by file', async () => {
      const { page } = app;
      await page.getByRole('tab', { name: 'Reviews' }).click();
      await page.getByText('No reviews yet').waitFor();
      await page.getByRole('button', { name: 'New review' }).click();
      await page.getByRole('radio', { name: 'Paste a diff' }).check();
      await page.getByLabel('Unified diff').fill(SAMPLE_DIFF);
      await page.locator('#diff-repository').fill('github.com/acme/widgets');
      await page.getByRole('button', { name: 'Submit review' }).click();
      const detail = page.locator('article.detail');
      await detail.locator('.badge', { hasText: 'Completed' }).first().waitFor();
      await detail.getByRole('heading', { name: /comments? in 2 files/ }).waitFor();
      const text = await detail.textContent();
      expect(text).toContain('src/math.js');
      expect(text).toContain('src/app.test.js');
      expect(text).toContain('no-debugger');
      // The list row follows the job (live update from main, no refresh).
      await page
        .locator('.job-row', { hasText: 'github.com/acme/widgets' })
        .locator('.badge', { hasText: 'Completed' })
        .waitFor();

      await detail.getByRole('button', { name: 'Copy SARIF' }).click();
      await detail.getByText(/SARIF copied/).waitFor();
      expect(JSON.parse(app.clipboard.at(-1)!)).toMatchObject({ version: '2.1.0' });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard.png') });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-dark.png') });
      await page.emulateMedia({ colorScheme: 'light' });
    });

    it('submits a local git folder through the shared git module', async () => {
      const { page } = app;
      app.nextFolder = makeRepository();
      await page.getByRole('button', { name: 'New review' }).click();
      await page.getByRole('radio', { name: 'Local git folder' }).check();
      await page.getByRole('button', { name: 'Choose folder…' }).click();
      await page.getByText(app.nextFolder).waitFor();
      await page.getByRole('button', { name: 'Submit review' }).click();
      const detail = page.locator('article.detail');
      await detail.locator('.badge', { hasText: 'Completed' }).first().waitFor();
      await detail.getByText('feature.js').waitFor();
      expect(await detail.textContent()).toContain('no-debugger');
      // A folder the user did not choose is refused by main, whatever the renderer sends.
      const refused = await page.evaluate(() =>
        window.diffReview!.invoke('reviews:submitFolder', { folder: '/etc', includeUncommitted: false }),
      );
      expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid_input', field: 'folder' } });
      expect(app.cspViolations, app.cspViolations.join('\n')).toEqual([]);
    });
  });

  describe('with a service elsewhere', () => {
    let remote: Service;
    let dataDir: string;
    let dashboardToken: string;
    let app: RendererHarness;
    const start = async (port = 0) =>
      createService({ dataDir, port, logLevel: 'silent', concurrency: 1, workerFile: CONTROLLED_WORKER });

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-remote-'));
      remote = await start();
      dashboardToken = readFileSync(remote.dashboardTokenFile!, 'utf8').trim();
      app = await openApp(renderer);
    });
    afterAll(() => closeInOrder(app, remote));

    // A refused dashboard token: renderer-ux.browser.test.ts ("shows the first start and a refused dashboard token").
    it('shows an unreachable address next to its field, then connects', async () => {
      const { page } = app;
      await page.getByRole('radio', { name: /Connect to a service/ }).check();
      const down = await closedPort();
      await page.getByLabel('Service address').fill(`http://127.0.0.1:${down}`);
      await page.getByLabel('Dashboard token').fill(dashboardToken);
      await page.getByRole('button', { name: 'Connect' }).click();
      await page
        .locator('#service-url-error')
        .getByText(/Nothing answers at/)
        .waitFor();
      expect(app.desktop.connection.state.phase).toBe('setup');

      await page.getByLabel('Service address').fill(remote.url);
      await page.getByLabel('Dashboard token').fill(dashboardToken);
      await page.getByRole('button', { name: 'Connect' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Connected · ${remote.url}` })
        .waitFor();
      // Kept encrypted: the settings file never holds the dashboard token in plain text.
      expect(readFileSync(path.join(app.userDataDir, 'connection.json'), 'utf8')).not.toContain(dashboardToken);
    });

    it('follows a job live from running to completed, and cancels a running one', async () => {
      const { page } = app;
      await app.submitThroughApp('SLEEP 1200\n', 'github.com/acme/slow');
      const detail = page.locator('article.detail');
      await detail.locator('.badge', { hasText: 'Running' }).first().waitFor();
      await detail.locator('.badge', { hasText: 'Completed' }).first().waitFor({ timeout: 10_000 });
      await detail.getByText('No comments').waitFor();
      expect(
        app.sent.some((s) => s.event === 'review:updated' && (s.payload as { status: string }).status === 'running'),
      ).toBe(true);

      await app.submitThroughApp('SLEEP 20000\n', 'github.com/acme/slow');
      await detail.locator('.badge', { hasText: 'Running' }).first().waitFor();
      await detail.getByRole('button', { name: 'Cancel review' }).click();
      await detail.locator('.badge', { hasText: 'Cancelled' }).first().waitFor();
      await detail.getByText('Stopped on request').waitFor();

      // Filters: the cancelled job apart from failed ones, then an unknown repository (the designed empty state).
      await page.getByLabel('Status').selectOption('cancelled');
      await page.locator('.job-row', { hasText: 'Completed' }).waitFor({ state: 'detached' });
      await expect.poll(() => page.locator('.job-row').count()).toBe(1);
      await page.getByLabel('Status').selectOption('failed');
      await expect.poll(() => page.locator('.job-row').count()).toBe(0);
      await page.getByLabel('Status').selectOption('');
      await page.locator('#filter-repository').fill('github.com/nobody/nothing');
      await page.getByText('No reviews match these filters').waitFor();
      await page.getByRole('button', { name: 'Clear the filters' }).click();
      await page.locator('.job-row').nth(1).waitFor();
    });

    it('shows a banner when the service goes away and reconnects with backoff when it is back', async () => {
      const { page } = app;
      const port = remote.port;
      await remote.close();
      const banner = page.getByRole('alert').filter({ hasText: 'Connection lost' });
      await banner.waitFor();
      await page.getByRole('status').filter({ hasText: 'Offline' }).waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, 'offline.png') });
      remote = await start(port);
      await banner.waitFor({ state: 'detached', timeout: 10_000 });
      await page
        .getByRole('status')
        .filter({ hasText: `Connected · ${remote.url}` })
        .waitFor();
      // The dashboard reloads after the reconnect.
      await page.locator('.job-row').first().waitFor();
    });

    it('reconnects on the next start from the encrypted settings', async () => {
      const again = await openApp(renderer, { userDataDir: app.userDataDir, safeStorage: app.safeStorage });
      try {
        await again.page
          .getByRole('status')
          .filter({ hasText: `Connected · ${remote.url}` })
          .waitFor();
        await again.page.locator('.job-row').first().waitFor();
      } finally {
        await again.close();
      }
    });
  });
});
