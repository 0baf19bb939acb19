// Layer 2 of the desktop tests: main-process code under Node (no Electron needed): window
// security, IPC sender checks, the contract's completeness, the preload bridge, the credential
// store with a fake safeStorage, the service launcher and the connection against a real service.
import { mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError, createClient } from '../../service/client/index.ts';
import { RENDERER_URL } from '../../desktop/main/app-protocol.ts';
import type { Connection } from '../../desktop/main/connection.ts';
import { CredentialStore } from '../../desktop/main/credential-store.ts';
import { createIpcRouter, isTrustedSender, type IpcHandlers } from '../../desktop/main/ipc-router.ts';
import type { ReviewWatcher } from '../../desktop/main/review-watcher.ts';
import { startBuiltInService } from '../../desktop/main/service-launcher.ts';
import {
  CONTENT_SECURITY_POLICY,
  isExternalLink,
  mainWindowOptions,
  mayNavigate,
} from '../../desktop/main/window-security.ts';
import { createBridge } from '../../desktop/preload/bridge.ts';
import { APP_TOKEN_NAME, IPC_CHANNELS, type ConnectionState } from '../../desktop/shared/ipc-contract.ts';
import { git, makeRepo as makeGitRepo } from '../support/git-repo.ts';
import { startTestService, type TestService } from '../support/test-service.ts';
import { fakeSafeStorage } from './support/fake-safe-storage.ts';
import { ipcHandlers, remoteConnection } from './support/main-parts.ts';

const root = path.resolve(import.meta.dirname, '../..');
const tempDir = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), `diff-review-${prefix}-`));

describe('window security', () => {
  it('isolates the renderer: contextIsolation and sandbox on, no Node, no webview', () => {
    const { webPreferences } = mainWindowOptions('/app/preload.js');
    expect(webPreferences).toMatchObject({
      preload: '/app/preload.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('has a strict Content-Security-Policy, the same in the page as in the code', () => {
    const html = readFileSync(path.join(root, 'desktop/renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
  });

  it('opens only web links outside, and never navigates away from its page', () => {
    expect(isExternalLink('https://github.com/acme/widgets')).toBe(true);
    expect(isExternalLink('file:///etc/passwd')).toBe(false);
    expect(isExternalLink('javascript:alert(1)')).toBe(false);
    expect(mayNavigate(RENDERER_URL, RENDERER_URL)).toBe(true);
    expect(mayNavigate(`${RENDERER_URL}#tokens`, RENDERER_URL)).toBe(true);
    expect(mayNavigate('https://evil.example/', RENDERER_URL)).toBe(false);
    expect(mayNavigate('file:///tmp/other.html', RENDERER_URL)).toBe(false);
  });

  it('imports electron only in the two entry files', () => {
    const files = walk(path.join(root, 'desktop')).filter((f) => /\.(ts|tsx|mjs)$/.test(f));
    const importers = files.filter((f) => /^import\s+(?!type\b)[^;]*from\s+'electron'/m.test(readFileSync(f, 'utf8')));
    expect(importers.map((f) => path.relative(root, f)).sort()).toEqual([
      'desktop/main/index.ts',
      'desktop/preload/index.ts',
    ]);
  });
});

describe('IPC', () => {
  const handlers = Object.fromEntries(IPC_CHANNELS.map((c) => [c, vi.fn(async () => c)])) as unknown as IpcHandlers;
  const log = vi.fn();
  const router = createIpcRouter({ handlers, rendererUrl: RENDERER_URL, log });

  it("answers only the top frame of the app's own page", async () => {
    expect(isTrustedSender({ url: RENDERER_URL, parent: null }, RENDERER_URL)).toBe(true);
    expect(isTrustedSender({ url: `${RENDERER_URL}?x#y`, parent: null }, RENDERER_URL)).toBe(true);
    expect(isTrustedSender({ url: RENDERER_URL, parent: {} }, RENDERER_URL)).toBe(false);
    expect(isTrustedSender({ url: 'https://evil.example/index.html', parent: null }, RENDERER_URL)).toBe(false);
    expect(isTrustedSender({ url: 'file:///tmp/index.html', parent: null }, RENDERER_URL)).toBe(false);
    expect(isTrustedSender(null, RENDERER_URL)).toBe(false);

    const refused = await router.dispatch('tokens:list', { url: 'https://evil.example/', parent: null }, []);
    expect(refused).toEqual({ ok: false, error: expect.objectContaining({ kind: 'forbidden' }) });
    expect(handlers['tokens:list']).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith('warn', expect.stringContaining('untrusted sender'), expect.anything());

    expect(await router.dispatch('tokens:list', { url: RENDERER_URL, parent: null }, [])).toEqual({
      ok: true,
      value: 'tokens:list',
    });
    expect(await router.dispatch('fs:readFile', { url: RENDERER_URL, parent: null }, [])).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
  });

  it('turns errors into values the renderer can show next to the field', async () => {
    const failing = createIpcRouter({
      handlers: {
        ...handlers,
        'tokens:create': async () => {
          throw new ApiError({
            status: 400,
            error: 'invalid_request',
            message: 'name must be at most 100 characters',
            body: {},
            method: 'POST',
            url: 'http://x/v1/auth/tokens',
          });
        },
        'tokens:list': async () => {
          throw new Error('secret internals');
        },
      },
      rendererUrl: RENDERER_URL,
      log,
    });
    const frame = { url: RENDERER_URL, parent: null };
    expect(await failing.dispatch('tokens:create', frame, [{}])).toEqual({
      ok: false,
      error: {
        kind: 'api',
        status: 400,
        code: 'invalid_request',
        field: 'name',
        message: 'Give the token a name of 1 to 100 characters.',
      },
    });
    const internal = await failing.dispatch('tokens:list', frame, []);
    expect(internal).toMatchObject({ ok: false, error: { kind: 'internal' } });
    expect(JSON.stringify(internal)).not.toContain('secret internals');
  });

  it('has a handler for every channel of the contract, and no other', () => {
    const real = ipcHandlers({ connection: {} as Connection, watcher: {} as ReviewWatcher });
    expect(Object.keys(real).sort()).toEqual([...IPC_CHANNELS].sort());
  });

  it("bridges only the contract's channels and hides the Electron event", async () => {
    const ipc = { invoke: vi.fn(async () => ({ ok: true, value: 1 })), on: vi.fn(), removeListener: vi.fn() };
    const bridge = createBridge(ipc);
    await bridge.invoke('reviews:get', 'rev_1');
    expect(ipc.invoke).toHaveBeenCalledWith('reviews:get', 'rev_1');
    await expect((bridge.invoke as (channel: string) => Promise<unknown>)('shell:exec')).rejects.toThrow(
      /Unknown IPC channel/,
    );
    expect(() => (bridge.on as (event: string, listener: () => void) => void)('anything', () => {})).toThrow(
      /Unknown IPC event/,
    );
    const listener = vi.fn();
    const off = bridge.on('review:updated', listener);
    const wrapped = ipc.on.mock.calls[0]![1] as (event: unknown, payload: unknown) => void;
    wrapped({ sender: 'secret' }, { review_id: 'rev_1' });
    expect(listener).toHaveBeenCalledWith({ review_id: 'rev_1' });
    off();
    expect(ipc.removeListener).toHaveBeenCalledWith('review:updated', wrapped);
  });
});

describe('credential store', () => {
  it('keeps secrets encrypted with safeStorage and reads them back', () => {
    const file = path.join(tempDir('cred'), 'connection.json');
    const storage = fakeSafeStorage();
    const store = new CredentialStore({ file, safeStorage: storage });
    store.saveConnection({ mode: 'remote', url: 'http://svc:7411' }, 'dashboard-secret-0123456789abcdef0123');
    store.setAppToken('http://svc:7411', { secret: 'drv_appsecret', id: 'tok_1' });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('dashboard-secret');
    expect(text).not.toContain('drv_appsecret');
    expect(statSync(file).mode & 0o077).toBe(0);
    const again = new CredentialStore({ file, safeStorage: storage });
    expect(again.connection).toEqual({ mode: 'remote', url: 'http://svc:7411' });
    expect(again.dashboardToken).toBe('dashboard-secret-0123456789abcdef0123');
    expect(again.appToken('http://svc:7411')).toEqual({ secret: 'drv_appsecret', id: 'tok_1' });
    // Another OS key (a new keychain): the secrets are gone, the choice stays, nothing crashes.
    const other = new CredentialStore({ file, safeStorage: fakeSafeStorage() });
    expect(other.connection).toEqual({ mode: 'remote', url: 'http://svc:7411' });
    expect(other.dashboardToken).toBeUndefined();
  });

  it('keeps secrets in memory only when the OS offers no real encryption', () => {
    for (const storage of [fakeSafeStorage({ available: false }), fakeSafeStorage({ backend: 'basic_text' })]) {
      const file = path.join(tempDir('cred'), 'connection.json');
      const store = new CredentialStore({ file, safeStorage: storage });
      expect(store.persistsSecrets).toBe(false);
      store.saveConnection({ mode: 'remote', url: 'http://svc' }, 'dashboard-secret-0123456789abcdef0123');
      expect(store.dashboardToken).toBe('dashboard-secret-0123456789abcdef0123');
      expect(readFileSync(file, 'utf8')).not.toContain('secret');
      expect(new CredentialStore({ file, safeStorage: storage }).dashboardToken).toBeUndefined();
    }
  });

  it('treats a damaged settings file as a first start', () => {
    const file = path.join(tempDir('cred'), 'connection.json');
    writeFileSync(file, '{ not json');
    expect(new CredentialStore({ file, safeStorage: fakeSafeStorage() }).connection).toBeUndefined();
  });
});

describe('service launcher', () => {
  it('starts the service in the user-data folder and reads its dashboard token itself', async () => {
    const userDataDir = tempDir('userdata');
    const service = await startBuiltInService({ userDataDir, service: { logLevel: 'warn' } });
    try {
      expect(service.dataDir).toBe(path.join(userDataDir, 'service'));
      expect(service.shared).toBe(false);
      const tokens = await createClient({ baseUrl: service.url, token: service.dashboardToken, retry: 0 }).listTokens();
      expect(tokens.tokens).toEqual([]);
      // A second launch on the same folder uses the running one instead of failing.
      const second = await startBuiltInService({ userDataDir, service: { logLevel: 'warn' } });
      expect(second).toMatchObject({ url: service.url, shared: true, dashboardToken: service.dashboardToken });
      await second.close();
    } finally {
      await service.close();
    }
  });
});

describe('service launcher: a stable port', () => {
  it('listens on the preferred port (7411 by default) when free, and on any free port when not', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const first = await startBuiltInService({
      userDataDir: tempDir('userdata'),
      preferredPort: port,
      service: { logLevel: 'warn' },
    });
    const second = await startBuiltInService({
      userDataDir: tempDir('userdata'),
      preferredPort: port,
      service: { logLevel: 'warn' },
    });
    try {
      expect(first.url).toBe(`http://127.0.0.1:${port}`);
      expect(second.url).not.toBe(first.url);
      expect(second.shared).toBe(false);
      await createClient({ baseUrl: second.url, token: second.dashboardToken, retry: 0 }).listTokens();
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe('connection against a real service', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ logLevel: 'silent' });
  });
  afterAll(async () => svc?.close());

  const connection = (states: ConnectionState[] = []) => remoteConnection((state) => states.push(state));

  it('refuses a wrong dashboard token with a message for that field', async () => {
    const conn = connection();
    await expect(conn.connect({ mode: 'remote', url: svc.url, dashboardToken: 'x'.repeat(40) })).rejects.toMatchObject({
      field: 'dashboardToken',
    });
    await expect(conn.connect({ mode: 'remote', url: 'ftp://host', dashboardToken: 'x' })).rejects.toMatchObject({
      field: 'url',
    });
    expect(conn.state.phase).toBe('setup');
    await conn.close();
  });

  it('creates its own review token once and replaces a revoked one', async () => {
    const states: ConnectionState[] = [];
    const conn = connection(states);
    await conn.connect({ mode: 'remote', url: svc.url, dashboardToken: svc.dashboardToken });
    expect(states.map((s) => s.phase)).toEqual(['connecting', 'connected']);
    const dashboard = svc.client(svc.dashboardToken);
    const ours = () => dashboard.listTokens().then((l) => l.tokens.filter((t) => t.name === APP_TOKEN_NAME));
    expect((await ours()).map((t) => t.id)).toEqual([conn.appTokenId]);

    await dashboard.deleteToken(conn.appTokenId!);
    await conn.withReviews((client) => client.listReviews()); // 401 → a new token → retried
    expect((await ours()).map((t) => t.id)).toEqual([conn.appTokenId]);
    await conn.close();
    // Tokens of the same name it did not create: see app-token.test.ts.
  });
  it("submitting a folder honours its .diff-review.yml: ignored files are not sent; a bad file is the folder's error", async () => {
    const conn = connection();
    await conn.connect({ mode: 'remote', url: svc.url, dashboardToken: svc.dashboardToken });
    const repo = makeGitRepo();
    try {
      repo.write('README.md', '# app\n');
      repo.commit('base');
      git(repo.dir, 'checkout', '-q', '-b', 'feature');
      repo.write('src/app.js', 'debugger;\n');
      repo.write('vendor/lib.js', 'debugger;\n');
      repo.write('.diff-review.yml', 'ignore:\n  - vendor/\nrules:\n  no-debugger: info\n');
      repo.commit('work');
      const opened: string[] = [];
      const handlers = ipcHandlers({
        connection: conn,
        watcher: { watch: () => {}, submitted: () => {} } as unknown as ReviewWatcher,
        chooseFolder: async () => repo.dir,
        openExternal: async (url) => void opened.push(url),
      });
      await handlers['git:chooseFolder']();
      const submitted = await handlers['reviews:submitFolder']({
        folder: repo.dir,
        baseBranch: 'main',
        includeUncommitted: false,
      });
      const done = await svc.client().waitForReview(submitted.job.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 });
      expect(done.comments?.map((c) => c.file_path)).toEqual(['src/app.js']); // vendor/ was never sent
      expect(submitted.diffBytes).toBeLessThan(Buffer.byteLength(git(repo.dir, 'diff', 'main...HEAD')));
      // Its rule settings apply to the comments the window gets (issue 11): no-debugger made "info".
      expect(done.comments?.[0]?.severity).toBe('warning');
      const shown = await handlers['reviews:get'](submitted.job.review_id);
      expect(shown.comments?.map((c) => [c.file_path, c.severity])).toEqual([['src/app.js', 'info']]);
      const page = await handlers['reviews:list']({});
      expect(page.reviews.find((j) => j.review_id === done.review_id)?.comments?.[0]?.severity).toBe('info');
      // "Open in VS Code": only files inside that folder, only for that review.
      const root = realpathSync(repo.dir);
      expect(await handlers['reviews:localInfo'](done.review_id)).toEqual({ folder: root, canRerun: true });
      await handlers['reviews:openInEditor']({ reviewId: done.review_id, filePath: 'src/app.js', line: 1 });
      expect(opened).toEqual([`vscode://file${root.split(path.sep).join('/')}/src/app.js:1`]);
      for (const filePath of ['../outside.js', '/etc/passwd', 'src/../../x.js', 'a\\..\\..\\x']) {
        await expect(
          handlers['reviews:openInEditor']({ reviewId: done.review_id, filePath, line: 1 }),
        ).rejects.toMatchObject({ field: 'filePath' });
      }
      await expect(
        handlers['reviews:openInEditor']({ reviewId: done.review_id, filePath: 'src/app.js', line: 0 }),
      ).rejects.toMatchObject({ field: 'line' });
      await expect(
        handlers['reviews:openInEditor']({ reviewId: 'rev_other', filePath: 'src/app.js', line: 1 }),
      ).rejects.toMatchObject({ field: 'reviewId' });
      expect(opened).toHaveLength(1);

      repo.write('.diff-review.yml', 'ignore: vendor/\n');
      repo.commit('a bad config');
      await expect(
        handlers['reviews:submitFolder']({ folder: repo.dir, baseBranch: 'main', includeUncommitted: false }),
      ).rejects.toMatchObject({ field: 'folder', message: '.diff-review.yml:1: ignore must be a list.' });
    } finally {
      repo.cleanup();
      await conn.close();
    }
  });
});

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}
