// Layer 3 of the desktop tests: the real app in the real Electron through Playwright's
// _electron.launch. No Electron binary can be had on the CI machines (electron >= 42 downloads
// it from GitHub on first use), so this runs only where one exists: set ELECTRON_PATH, or have
// node_modules/electron/dist (after `npx install-electron`).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildDesktop } from './support/build.ts';

function electronBinary(): string | undefined {
  if (process.env.ELECTRON_PATH) return existsSync(process.env.ELECTRON_PATH) ? process.env.ELECTRON_PATH : undefined;
  // Read electron's path.txt ourselves: require('electron') would try to download the binary.
  const pkg = path.resolve(import.meta.dirname, '../../node_modules/electron');
  try {
    const binary = path.join(pkg, 'dist', readFileSync(path.join(pkg, 'path.txt'), 'utf8').trim());
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

const binary = electronBinary();
const REASON =
  'Skipping the Electron app test: no Electron binary on this machine (electron >= 42 downloads it from GitHub on first use, ' +
  'which is not reachable here). Set ELECTRON_PATH or run `npx install-electron` to run it.';
if (!binary) console.warn(REASON);

describe('the desktop app in Electron', () => {
  it.skipIf(!binary)(
    'starts with the built-in service, creates a token and reviews a diff',
    async () => {
      const outdir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-electron-'));
      await buildDesktop(outdir, ['main', 'service', 'renderer']);
      const userData = mkdtempSync(path.join(os.tmpdir(), 'diff-review-electron-home-'));
      const app = await electron.launch({
        executablePath: binary!,
        args: [outdir, `--user-data-dir=${userData}`],
        env: { ...process.env, ELECTRON_ENABLE_LOGGING: '1' },
      });
      try {
        const page = await app.firstWindow();
        const prefs = await app.evaluate(({ BrowserWindow }) =>
          (
            BrowserWindow.getAllWindows()[0]!.webContents as unknown as { getLastWebPreferences(): unknown }
          ).getLastWebPreferences(),
        );
        expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
        expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
        // Served by the app:// protocol, with the CSP as a response header.
        expect(page.url()).toBe('app://renderer/index.html');
        // (Asked from main: the page's own CSP allows it no requests at all.)
        const csp = await app.evaluate(async ({ net }) =>
          (await net.fetch('app://renderer/index.html')).headers.get('content-security-policy'),
        );
        expect(csp).toContain("frame-ancestors 'none'");
        // The menu carries the keyboard commands; started from a folder (not packaged) it has the
        // developer tools, which a packaged build leaves out (app-menu.test.ts).
        const labels = await app.evaluate(({ Menu }) =>
          Menu.getApplicationMenu()!.items.flatMap((item) => item.submenu?.items.map((sub) => sub.label) ?? []),
        );
        expect(labels).toEqual(expect.arrayContaining(['New Review', 'Search Reviews', 'Next Review']));

        await page.getByRole('button', { name: 'Start the built-in service' }).click();
        await page.getByRole('status').filter({ hasText: 'Connected · Built-in service' }).waitFor({ timeout: 30_000 });
        await page.getByRole('tab', { name: 'Tokens' }).click();
        await page.getByLabel('Name').fill('electron test');
        await page.getByRole('button', { name: 'Create token' }).click();
        expect(await page.getByLabel("The new token's secret").inputValue()).toMatch(/^drv_/);

        await page.getByRole('tab', { name: 'Reviews' }).click();
        await page.getByRole('button', { name: 'New review' }).click();
        await page.getByRole('radio', { name: 'Paste a diff' }).check();
        await page
          .getByLabel('Unified diff')
          .fill('diff --git a/a.js b/a.js\n--- a/a.js\n+++ b/a.js\n@@ -1 +1,2 @@\n a;\n+debugger;\n');
        await page.locator('#diff-repository').fill('github.com/acme/widgets');
        await page.getByRole('button', { name: 'Submit review' }).click();
        await page.locator('article.detail').getByText('no-debugger').waitFor({ timeout: 30_000 });
        // The built-in service runs in its own process (utilityProcess), not in main.
        const processes = await app.evaluate(({ app: electronApp }) =>
          electronApp.getAppMetrics().map((metric) => metric.type),
        );
        expect(processes).toContain('Utility');
      } finally {
        await app.close();
      }
    },
    120_000,
  );
});
