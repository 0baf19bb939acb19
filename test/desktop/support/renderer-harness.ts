// The renderer in a real Chromium, wired to the real main-process code: createDesktopApp (the
// credential store, connection, watcher, IPC router and handlers main/index.ts uses) with fakes
// for the OS parts only (safeStorage, folder picker, clipboard).
import { mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { appResponse } from '../../../desktop/main/app-protocol.ts';
import { createDesktopApp, type DesktopApp } from '../../../desktop/main/desktop-app.ts';
import { startBuiltInService } from '../../../desktop/main/service-launcher.ts';
import type { IpcEvent } from '../../../desktop/shared/ipc-contract.ts';
import { createClient, type DiffReviewClient } from '../../../service/client/index.ts';
import type { CreateTokenBody, Service } from '../../../service/index.ts';
import { CHROMIUM_ARGS } from '../../support/chromium-args.mjs';
import { buildDesktop } from './build.ts';
import { MISSING_CHROMIUM } from './chromium.ts';
import { fakeSafeStorage, type FakeSafeStorage } from './fake-safe-storage.ts';

export interface RendererHarness {
  page: Page;
  desktop: DesktopApp;
  userDataDir: string;
  safeStorage: FakeSafeStorage;
  clipboard: string[];
  /** Every URL the app asked the OS to open (vscode://file/…). */
  opened: string[];
  /** Every notification main sent to the window. */
  sent: { event: IpcEvent; payload: unknown }[];
  /** Console messages that report a Content-Security-Policy violation. */
  cspViolations: string[];
  /** From the first request on: console errors, uncaught exceptions, and responses of 400 or more (with their URL). */
  consoleErrors: string[];
  /** What the fake folder picker answers next. */
  nextFolder: string | undefined;
  /** What the fake save dialog answers next (undefined: cancelled). */
  nextSaveFile: string | undefined;
  /**
   * Submits a diff through the app's own IPC handler, as the window's form would, then opens its
   * row: for the controlled worker's commands ("SLEEP 20000"), which the form refuses as not a diff.
   */
  submitThroughApp(diff: string, repository: string): Promise<string>;
  close(): Promise<void>;
}

export interface RendererBuild {
  browser: Browser;
  /** The page, served by the app:// protocol's own code on a loopback port (see servePage). */
  rendererUrl: string;
  shim: string;
  close(): Promise<void>;
}

/** Where the renderer suites save their screenshots. */
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../../test-output/desktop');

/**
 * The first step of a renderer suite's beforeAll: its Chromium, or a failure (the suites skip
 * without one, except in CI), and the screenshots folder made.
 */
export function requireChromium(chromiumPath: string | undefined): string {
  if (!chromiumPath) throw new Error(MISSING_CHROMIUM.replace('Skipping', 'Cannot run'));
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromiumPath;
}

/**
 * A REAL service's dashboard token, a client with it (admin), and a review client with a new
 * token named "Seeder" (given `seeder`'s scopes or expiry, if any) to seed reviews through.
 */
export async function dashboardClients(
  service: Service,
  seeder: Omit<CreateTokenBody, 'name'> = {},
): Promise<{ dashboardToken: string; admin: DiffReviewClient; client: DiffReviewClient }> {
  const dashboardToken = readFileSync(service.dashboardTokenFile!, 'utf8').trim();
  const admin = createClient({ baseUrl: service.url, token: dashboardToken, retry: 0 });
  const { token } = await admin.createToken({ name: 'Seeder', ...seeder });
  return { dashboardToken, admin, client: createClient({ baseUrl: service.url, token, retry: 0 }) };
}

/** The renderer built and served to a new Chromium, and the app opened in it. */
export async function openRenderer(chromiumPath: string): Promise<{ renderer: RendererBuild; app: RendererHarness }> {
  const renderer = await launchRenderer(chromiumPath);
  return { renderer, app: await openApp(renderer) };
}

/** A suite's afterAll: closes what its beforeAll got to open, one after the other, in the order given. */
export async function closeInOrder(...parts: ({ close(): Promise<void> } | undefined)[]): Promise<void> {
  for (const part of parts) await part?.close();
}

export async function launchRenderer(executablePath: string): Promise<RendererBuild> {
  const outdir = await mkdtemp(path.join(os.tmpdir(), 'diff-review-desktop-'));
  await buildDesktop(outdir, ['renderer']);
  const shimBuild = await build({
    entryPoints: [path.join(import.meta.dirname, 'preload-shim.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    logLevel: 'error',
  });
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const server = await servePage(path.join(outdir, 'renderer'));
  return {
    browser,
    rendererUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`,
    shim: shimBuild.outputFiles[0]!.text,
    close: async () => {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The renderer folder served as Electron serves app://renderer/ (main/app-protocol.ts: the same
 * files, types and CSP header). Chromium cannot be given a custom scheme here, so the page's
 * origin is a loopback one, and the IPC sender check compares against that URL.
 */
async function servePage(rendererDir: string): Promise<Server> {
  const server = createServer((request, reply) => {
    void appResponse(`app://renderer${request.url ?? '/'}`, rendererDir, request.method).then(async (response) => {
      reply.writeHead(response.status, Object.fromEntries(response.headers));
      reply.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

export async function openApp(
  renderer: RendererBuild,
  options: { colorScheme?: 'light' | 'dark'; userDataDir?: string; safeStorage?: FakeSafeStorage } = {},
): Promise<RendererHarness> {
  const userDataDir = options.userDataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'diff-review-userdata-')));
  const rendererUrl = renderer.rendererUrl;
  const context = await renderer.browser.newContext({
    viewport: { width: 1280, height: 820 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const harness: RendererHarness = {
    page,
    desktop: undefined as unknown as DesktopApp,
    userDataDir,
    safeStorage: options.safeStorage ?? fakeSafeStorage(),
    clipboard: [],
    opened: [],
    sent: [],
    cspViolations: [],
    consoleErrors: [],
    nextFolder: undefined,
    nextSaveFile: undefined,
    submitThroughApp: async (diff, repository) => {
      const result = await harness.desktop.router.dispatch('reviews:submitDiff', { url: rendererUrl, parent: null }, [
        { diff, repository },
      ]);
      if (!result.ok) throw new Error(result.error.message);
      const id = (result.value as { review_id: string }).review_id;
      await page.locator(`.job-row[data-review-id="${id}"]`).click();
      return id;
    },
    close: async () => {
      await harness.desktop.close();
      await context.close();
      // Every suite's window, not only the one that looks for them: an error in the console or a
      // failed request on the way is a defect a user's DevTools would show.
      if (harness.consoleErrors.length > 0)
        throw new Error(`the page logged errors or failed requests:\n${harness.consoleErrors.join('\n')}`);
    },
  };
  harness.desktop = createDesktopApp({
    userDataDir,
    rendererUrl,
    safeStorage: harness.safeStorage,
    startBuiltIn: () => startBuiltInService({ userDataDir, service: { logLevel: 'warn', concurrency: 2 } }),
    send: (event, payload) => {
      harness.sent.push({ event, payload });
      if (!page.isClosed()) {
        page
          .evaluate(
            ([e, p]) => (window as unknown as { __diffReviewEmit(e: string, p: unknown): void }).__diffReviewEmit(e, p),
            [event, payload] as const,
          )
          .catch(() => {});
      }
    },
    chooseFolder: async () => harness.nextFolder,
    chooseSaveFile: async () => harness.nextSaveFile,
    writeClipboard: (text) => void harness.clipboard.push(text),
    openExternal: async (url) => void harness.opened.push(url),
    log: () => {},
    timing: { healthIntervalMs: 250, firstRetryMs: 200, maxRetryMs: 1000, requestTimeoutMs: 5000 },
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) harness.cspViolations.push(message.text());
    if (message.type() === 'error')
      harness.consoleErrors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => harness.consoleErrors.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) harness.consoleErrors.push(`${response.status()} ${response.url()}`);
  });
  // The binding tells which frame called: the router's sender check sees the real caller.
  await page.exposeBinding('__diffReviewInvoke', ({ frame }, channel: unknown, args: unknown[]) =>
    harness.desktop.router.dispatch(channel, { url: frame.url(), parent: frame.parentFrame() }, args),
  );
  await page.addInitScript({ content: renderer.shim });
  await harness.desktop.start();
  await page.goto(rendererUrl);
  return harness;
}
