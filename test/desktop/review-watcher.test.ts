// Live updates after a lost connection (issue 14, E23): a job whose following broke off while the
// service was away is followed again once it is back, wherever it sits in the window's list.
// A REAL service with the controlled worker, stopped and started again on the same port.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../service/client/index.ts';
import { createService, type Service } from '../../service/index.ts';
import { createDesktopApp } from '../../desktop/main/desktop-app.ts';
import { ReviewWatcher } from '../../desktop/main/review-watcher.ts';
import type { ReviewJob } from '../../desktop/shared/ipc-contract.ts';
import { fakeSafeStorage } from './support/fake-safe-storage.ts';

const CONTROLLED_WORKER = new URL('../fixtures/workers/controlled-worker.ts', import.meta.url);

describe('review watcher', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-watcher-'));
  const start = (port = 0) =>
    createService({ dataDir, port, logLevel: 'silent', concurrency: 1, workerFile: CONTROLLED_WORKER });
  let service: Service | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it('follows again, after the service is back, a job it lost while the service was away', async () => {
    service = await start();
    const url = service.url;
    const token = readFileSync(service.dashboardTokenFile!, 'utf8').trim();
    const admin = createClient({ baseUrl: url, token, retry: 0 });
    const reviewToken = (await admin.createToken({ name: 'w' })).token;
    const client = createClient({ baseUrl: url, token: reviewToken, retry: 0 });
    const running = await client.createReview({ diff: 'SLEEP 300\n', repository: 'github.com/acme/a' });
    const queued = await client.createReview({ diff: 'SLEEP 0\n', repository: 'github.com/acme/a' });
    const updates: ReviewJob[] = [];
    const errors: unknown[] = [];
    const watcher = new ReviewWatcher({
      client: () => createClient({ baseUrl: url, token: reviewToken, retry: 0, timeoutMs: 2000 }),
      notify: (job) => updates.push(job),
      onError: (error) => errors.push(error),
    });
    watcher.watch([queued]);
    await service.close();
    await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(watcher.size).toBe(0);

    service = await start(Number(new URL(url).port));
    watcher.resume();
    await expect
      .poll(() => updates.filter((job) => job.review_id === queued.review_id).at(-1)?.status, { timeout: 15_000 })
      .toBe('completed');
    watcher.stopAll();
    expect((await client.getReview(running.review_id)).status).toBe('completed');
  });

  it("keeps live updates going when the app's review token is revoked: a new token, then followed again", async () => {
    service = await start();
    const url = service.url;
    const dashboardToken = readFileSync(service.dashboardTokenFile!, 'utf8').trim();
    const admin = createClient({ baseUrl: url, token: dashboardToken, retry: 0 });
    const seeder = createClient({ baseUrl: url, token: (await admin.createToken({ name: 's' })).token, retry: 0 });
    const sent: { event: string; payload: unknown }[] = [];
    const desktop = createDesktopApp({
      userDataDir: mkdtempSync(path.join(os.tmpdir(), 'diff-review-userdata-')),
      rendererUrl: 'app://renderer/index.html',
      safeStorage: fakeSafeStorage(),
      startBuiltIn: async () => {
        throw new Error('not here');
      },
      send: (event, payload) => void sent.push({ event, payload }),
      chooseFolder: async () => undefined,
      chooseSaveFile: async () => undefined,
      writeClipboard: () => {},
      openExternal: async () => {},
      log: () => {},
    });
    try {
      await desktop.connection.connect({ mode: 'remote', url, dashboardToken });
      const revoked = desktop.connection.appTokenId!;
      await admin.deleteToken(revoked);
      const job = await seeder.createReview({ diff: 'SLEEP 200\n', repository: 'github.com/acme/a' });
      desktop.watcher.watch([job]);
      await expect
        .poll(
          () =>
            sent
              .filter((s) => s.event === 'review:updated')
              .map((s) => s.payload as ReviewJob)
              .find((update) => update.review_id === job.review_id && update.status === 'completed'),
          { timeout: 15_000 },
        )
        .toBeDefined();
      expect(desktop.connection.appTokenId).not.toBe(revoked);
    } finally {
      await desktop.close();
    }
  });
});
