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
import { BundledService } from '../../extension/src/bundled-service.ts';
import { ServiceSession } from '../../extension/src/session.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-session-'));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const bundled = new BundledService(dataDir, quiet);
const secrets = new Map<string, string>();
const secretStorage = {
  get: async (key: string) => secrets.get(key),
  store: async (key: string, value: string) => void secrets.set(key, value),
  delete: async (key: string) => void secrets.delete(key),
} as unknown as vscode.SecretStorage;
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
