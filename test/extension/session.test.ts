// The extension's own token on the bundled service: renewed when it ends within a week, the old one
// revoked. A real bundled service (BundledService, as the extension runs it) in a temp data dir;
// SecretStorage is the one part of VS Code the session uses, played by a Map.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as vscode from 'vscode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardTokenFile } from '../../service/auth/dashboard-token.ts';
import { createClient } from '../../service/client/index.ts';
import { createService } from '../../service/index.ts';
import { BundledService } from '../../extension/src/bundled-service.ts';
import { ServiceSession } from '../../extension/src/session.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-session-'));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const bundled = new BundledService(dataDir, quiet);
/** SecretStorage over a Map. */
const memorySecrets = (secrets: Map<string, string>) =>
  ({
    get: async (key: string) => secrets.get(key),
    store: async (key: string, value: string) => void secrets.set(key, value),
    delete: async (key: string) => void secrets.delete(key),
  }) as unknown as vscode.SecretStorage;
const secrets = new Map<string, string>();
const secretStorage = memorySecrets(secrets);
let url: string;
const dashboard = () => createClient({ baseUrl: url, token: readFileSync(dashboardTokenFile(dataDir), 'utf8').trim() });
const extensionTokens = async () =>
  (await dashboard().listTokens()).tokens.filter((token) => token.name === 'VS Code extension');

beforeAll(async () => {
  url = (await bundled.endpoint()).url;
});
let restarted: BundledService | undefined;
afterAll(async () => {
  await bundled.dispose();
  await restarted?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the extension's token on the bundled service", () => {
  it('is renewed when it ends within a week: a new token, the old one revoked', async () => {
    // The extension's token as an earlier session stored it, made to end tomorrow.
    const old = await dashboard().createToken({ name: 'VS Code extension', expires_in_days: 1 });
    secrets.set(
      'diffReview.token:bundled',
      JSON.stringify({ token: old.token, provisioned: true, id: old.id, expiresAt: old.expires_at }),
    );
    const session = new ServiceSession(secretStorage, bundled, quiet);
    const connection = await session.connect('', 10_000, AbortSignal.timeout(10_000));
    expect(connection.bundled).toBe(true);
    const tokens = await extensionTokens();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.id).not.toBe(old.id);
    expect(Date.parse(tokens[0]!.expires_at ?? '')).toBeGreaterThan(Date.now() + 20 * 86_400_000);
    // The new one works; the next connect keeps it.
    await connection.client.listReviews();
    await session.connect('', 10_000, AbortSignal.timeout(10_000));
    expect((await extensionTokens()).map((token) => token.id)).toEqual([tokens[0]!.id]);
  });

  it('reviews that connect at once share the one token they need (none is left behind)', async () => {
    const session = new ServiceSession(secretStorage, bundled, quiet);
    await session.signOut('');
    const connections = await Promise.all(
      [1, 2, 3].map(() => session.connect('', 10_000, AbortSignal.timeout(10_000))),
    );
    expect(await extensionTokens()).toHaveLength(1);
    for (const connection of connections) await connection.client.listReviews();
  });

  it('a revoke that failed (the service had gone) is done once the service is back', async () => {
    const session = new ServiceSession(secretStorage, bundled, quiet);
    await session.connect('', 10_000, AbortSignal.timeout(10_000));
    const [before] = await extensionTokens();
    await bundled.dispose(); // the window that ran it closed
    await session.signOut('');
    restarted = new BundledService(dataDir, quiet);
    url = (await restarted.endpoint()).url;
    expect((await extensionTokens()).map((token) => token.id)).toEqual([before!.id]);
    await new ServiceSession(secretStorage, restarted, quiet).connect('', 10_000, AbortSignal.timeout(10_000));
    const after = await extensionTokens();
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before!.id);
  });
});

describe("another window's bundled service", () => {
  // A range of its own: the extension-host suite, which may run at the same time, uses BUNDLED_PORTS.
  const RANGE = { first: 47360, last: 47379 };
  const dirs: string[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-window-'));
    dirs.push(dir);
    return dir;
  };

  it('is left once that window closes, even when its port is by then another service', async () => {
    const shared = tempDir();
    const otherWindow = new BundledService(shared, quiet, RANGE);
    const borrowedUrl = (await otherWindow.endpoint()).url;
    const thisWindow = new BundledService(shared, quiet, RANGE);
    closers.push(() => thisWindow.dispose());
    const session = new ServiceSession(memorySecrets(new Map()), thisWindow, quiet);
    const first = await session.connect('', 10_000, AbortSignal.timeout(10_000));
    expect(first.url).toBe(borrowedUrl);
    await first.client.listReviews();

    // The other window closes, and another Diff Review service (its own data dir, its own
    // tokens) takes the port it freed before this window reviews again.
    await otherWindow.dispose();
    const stranger = await createService({
      dataDir: tempDir(),
      port: Number(new URL(borrowedUrl).port),
      host: '127.0.0.1',
      logLevel: 'silent',
    });
    closers.push(() => stranger.close());
    const second = await session.connect('', 10_000, AbortSignal.timeout(10_000));
    expect(second.url).not.toBe(borrowedUrl);
    expect(second.serviceStartMs, "this window's own service").toBeGreaterThan(0);
    await second.client.listReviews(); // the token made on the shared data dir works
  });
});
