// Live updates after a lost connection (issue 14, E23): a job whose following broke off while the
// service was away is followed again once it is back, wherever it sits in the window's list.
// A REAL service with the controlled worker, stopped and started again on the same port.
// And one event stream for all of them (issue 14, Security): a burst of 200 jobs held 202 sockets.
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
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

  it('follows a burst of 200 jobs submitted through the app holding one socket to follow them, to their final states', {
    timeout: 120_000,
  }, async () => {
    service = await createService({
      dataDir: mkdtempSync(path.join(os.tmpdir(), 'diff-review-burst-')),
      port: 0,
      logLevel: 'silent',
      concurrency: 2,
      workerFile: CONTROLLED_WORKER,
      rateLimits: { create: 0, read: 0, tokens: 0 },
    });
    const proxy = await countingProxy(new URL(service.url));
    const sent: { event: string; payload: unknown }[] = [];
    const desktop = appOn(sent);
    try {
      await desktop.connection.connect({
        mode: 'remote',
        url: proxy.url,
        dashboardToken: readFileSync(service.dashboardTokenFile!, 'utf8').trim(),
      });
      // The sockets of connecting (kept alive a few seconds) are not the burst's: counted from none.
      await expect.poll(() => proxy.open, { timeout: 20_000 }).toBe(0);
      proxy.reset();
      const frame = { url: 'app://renderer/index.html', parent: null };
      const submitted: string[] = [];
      for (let i = 0; i < 200; i++) {
        const answer = await desktop.router.dispatch('reviews:submitDiff', frame, [
          { diff: `SLEEP ${30 + (i % 7)}\n`, repository: 'github.com/acme/burst' },
        ]);
        expect(answer.ok).toBe(true);
        submitted.push((answer as { value: ReviewJob }).value.review_id);
      }
      const final = new Map<string, ReviewJob>();
      await expect
        .poll(
          () => {
            for (const { event, payload } of sent) {
              const job = payload as ReviewJob;
              if (event === 'review:updated' && job.status === 'completed') final.set(job.review_id, job);
            }
            return submitted.filter((id) => !final.has(id)).length;
          },
          { timeout: 90_000 },
        )
        .toBe(0);
      expect(desktop.watcher.size).toBe(0);
      // each job's states reached the window in order, each once: never backwards
      const rank = { queued: 0, running: 1, completed: 2, failed: 2 };
      for (const id of submitted) {
        const told = sent
          .filter((s) => s.event === 'review:updated' && (s.payload as ReviewJob).review_id === id)
          .map((s) => rank[(s.payload as ReviewJob).status]);
        expect(told).toEqual([...new Set(told)].sort());
      }
      // Following holds one socket, whatever the number of jobs (it held one per job: 202). The
      // others are the submissions' own: fetch (undici) alternates two kept-alive sockets for
      // back-to-back requests; and the connection's health check may take one more.
      expect(proxy.mostStreams).toBe(1);
      expect(proxy.most).toBeLessThanOrEqual(4);
      expect(proxy.requests.filter((line) => /^GET \/v1\/reviews\/[^/ ]+\/events/.test(line))).toEqual([]);
    } finally {
      await desktop.close();
      await proxy.close();
    }
  });

  it('tells the window of a job the app submits at once, while it still waits in the queue', async () => {
    service = await start();
    const dashboardToken = readFileSync(service.dashboardTokenFile!, 'utf8').trim();
    const sent: { event: string; payload: unknown }[] = [];
    const desktop = appOn(sent);
    try {
      await desktop.connection.connect({ mode: 'remote', url: service.url, dashboardToken });
      const frame = { url: 'app://renderer/index.html', parent: null };
      const submit = async (diff: string) => {
        const answer = await desktop.router.dispatch('reviews:submitDiff', frame, [
          { diff, repository: 'github.com/acme/q' },
        ]);
        return (answer as { value: ReviewJob }).value;
      };
      const running = await submit('SLEEP 3000\n');
      const queued = await submit('SLEEP 0\n');
      expect(queued.status).toBe('queued');
      // No state change would have told it: the window's list would show it only at its next refresh.
      const told = sent.filter((s) => s.event === 'review:updated').map((s) => s.payload as ReviewJob);
      expect(told.find((job) => job.review_id === queued.review_id)?.status).toBe('queued');
      await desktop.router.dispatch('reviews:cancel', frame, [running.review_id]);
    } finally {
      await desktop.close();
    }
  });

  it('polls while the service refuses the event stream (429), and still tells the final state', async () => {
    service = await createService({
      dataDir: mkdtempSync(path.join(os.tmpdir(), 'diff-review-refused-')),
      port: 0,
      logLevel: 'silent',
      workerFile: CONTROLLED_WORKER,
      eventStreams: { total: 1 },
    });
    const url = service.url;
    const admin = createClient({ baseUrl: url, token: readFileSync(service.dashboardTokenFile!, 'utf8').trim() });
    const [mine, other] = [
      (await admin.createToken({ name: 'm' })).token,
      (await admin.createToken({ name: 'o' })).token,
    ];
    // the service's only stream is taken
    const holder = new AbortController();
    const taken = createClient({ baseUrl: url, token: other }).ownerEvents({ signal: holder.signal });
    await taken.next();
    const client = createClient({ baseUrl: url, token: mine, retry: 0 });
    await expect(client.ownerEvents().next()).rejects.toMatchObject({ status: 429 });
    const updates: ReviewJob[] = [];
    const errors: unknown[] = [];
    const watcher = new ReviewWatcher({
      client: () => client,
      notify: (job) => updates.push(job),
      onError: (e) => errors.push(e),
    });
    const job = await client.createReview({ diff: 'SLEEP 300\n', repository: 'github.com/acme/a' });
    watcher.watch([job]);
    await expect.poll(() => updates.at(-1)?.status, { timeout: 15_000 }).toBe('completed');
    expect(errors).toEqual([]);
    expect(watcher.size).toBe(0);
    holder.abort();
    await taken.return();
  });

  it("keeps live updates going when the app's review token is revoked: a new token, then followed again", async () => {
    service = await start();
    const url = service.url;
    const dashboardToken = readFileSync(service.dashboardTokenFile!, 'utf8').trim();
    const admin = createClient({ baseUrl: url, token: dashboardToken, retry: 0 });
    const seeder = createClient({ baseUrl: url, token: (await admin.createToken({ name: 's' })).token, retry: 0 });
    const sent: { event: string; payload: unknown }[] = [];
    const desktop = appOn(sent);
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

/** The desktop app's main process (no Electron), its messages to the window collected in `sent`. */
function appOn(sent: { event: string; payload: unknown }[]) {
  return createDesktopApp({
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
}

/**
 * A TCP proxy in front of the service that counts the sockets open through it, the most at once,
 * and the most at once that carried an event stream; and keeps the request lines.
 */
async function countingProxy(target: URL) {
  let open = 0;
  let most = 0;
  let streams = 0;
  let mostStreams = 0;
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    most = Math.max(most, ++open);
    let streaming = false;
    socket.on('data', (chunk: Buffer) => {
      const line = /^(GET|POST|DELETE) \S+/.exec(chunk.toString('latin1'))?.[0];
      if (!line) return;
      requests.push(line);
      if (!streaming && /^GET \S*\/events\b/.test(line)) {
        streaming = true;
        mostStreams = Math.max(mostStreams, ++streams);
        socket.once('close', () => streams--);
      }
    });
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [socket, upstream]) sockets.add(s);
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    socket.once('close', () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    get open() {
      return open;
    },
    get most() {
      return most;
    },
    get mostStreams() {
      return mostStreams;
    },
    requests,
    /** Counts from now on (from the sockets open now). */
    reset: () => {
      most = open;
      mostStreams = streams;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
