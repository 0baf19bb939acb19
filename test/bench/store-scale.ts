// Scale of the store: create latency (POST /v1/reviews, one at a time, p50 and p99) and the
// service's memory (RSS) with 1,000, 10,000 and 100,000 stored reviews, seeded through the store
// (LowdbStore), not the API. The baseline is the same service with 1,000 stored reviews.
// The service is `diff-review serve` as `npm start` runs it: the built CLI (dist/service/cli.js,
// built first), in a process of its own, so the RSS is that of the production path. Earlier runs
// measured the TypeScript source under Node's type stripper (more memory in each thread that
// loads TypeScript: the HTTP thread and every review worker; README.md); ENTRY=source measures that again.
// The idempotency rows: keyed creates (our client sends a key with every create) with 1,000 stored
// reviews and 0 or 100,000 live idempotency keys (less than 24 hours old, seeded through the store);
// the baseline is 0 keys. They also time GET /healthz, which waits behind whatever the event loop does.
// Run: node test/bench/store-scale.ts   (SIZES=1000,10000,100000; KEYS=0,100000; CREATES=300;
// ENTRY=bundle|source; SIZES= or KEYS= skips those rows)
import { randomUUID } from 'node:crypto';
import { ulid } from 'ulid';
import { LOCAL_OWNER } from '../../service/auth/dashboard-token.ts';
import { LowdbStore } from '../../service/store/lowdb-store.ts';
import {
  buildBundles,
  createReview,
  debuggerDiff,
  mb,
  ms,
  percentile,
  ratio,
  reviewToken,
  runIfMain,
  startCli,
  tempDir,
  type Row,
} from './support/harness.ts';
import { storedReview } from '../support/stored-review.ts';

const list = (value: string) => value.split(',').filter(Boolean).map(Number);
const SIZES = list(process.env.SIZES ?? '1000,10000,100000');
const KEYS = list(process.env.KEYS ?? '0,100000');
const CREATES = Number(process.env.CREATES ?? 300);
const ENTRY = process.env.ENTRY === 'source' ? 'source' : 'bundle';
/** As a benchmark runs it: no 429s from the limiter or the queue bound get in the way. */
const SERVE_ARGS = ['--rate-limit', '0', '--create-rate-limit', '0', '--max-queued', '1000000'];

/** `count` finished reviews, as the service leaves them, written through the store in one go. */
export async function seedStore(dataDir: string, count: number, keys = 0): Promise<void> {
  const store = await LowdbStore.open(dataDir);
  const now = Date.now();
  const writes: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    // Spread over the last 20 days (inside the default 30-day retention), oldest first.
    const at = new Date(now - (count - i) * Math.floor((20 * 86_400_000) / count)).toISOString();
    const failed = i % 10 === 9;
    const review = storedReview({
      review_id: `rev_${ulid(Date.parse(at))}`,
      owner: LOCAL_OWNER,
      status: failed ? 'failed' : 'completed',
      repository: `github.com/acme/repo-${i % 50}`,
      base_commit: '9f91288762dcc3a6ac5892471a0e031818e1a559',
      at,
      started_at: at,
      ...(failed ? { error: { code: 'invalid_diff', message: 'The diff has no file headers.' } } : {}),
    });
    writes.push(store.insertReview(review)); // one coalesced write for all of them
  }
  for (let i = 0; i < keys; i++) {
    // Spread over the last 23 hours: all of them live (keys expire after 24).
    const at = new Date(now - (keys - i) * Math.floor((23 * 3_600_000) / keys)).toISOString();
    writes.push(
      store.putIdempotency({
        owner: LOCAL_OWNER,
        key: randomUUID(),
        request_hash: 'ab'.repeat(32),
        review_id: `rev_${ulid(Date.parse(at))}`,
        created_at: at,
      }),
    );
  }
  await Promise.all(writes);
  await store.close();
}

interface Measured {
  p50: number;
  p99: number;
  healthP50: number;
  rss: number;
  creates: number;
  seedMs: number;
}

/** Seeds a data dir, starts `diff-review serve` on it and times creates (keyed or not) and /healthz. */
async function measure(name: string, reviews: number, keys: number, keyed: boolean): Promise<Measured> {
  const diff = debuggerDiff(3);
  const data = await tempDir(name);
  try {
    const seeding = Date.now();
    await seedStore(data.dir, reviews, keys);
    const seedMs = Date.now() - seeding;
    const service = await startCli(data.dir, SERVE_ARGS, ENTRY);
    try {
      const token = await reviewToken(service.url, service.dashboardToken);
      const create = () => createReview(service.url, token, diff, undefined, keyed ? randomUUID() : undefined);
      for (let i = 0; i < 20; i++) await create(); // warm-up
      const latencies: number[] = [];
      const health: number[] = [];
      const until = Date.now() + 120_000;
      for (let i = 0; i < CREATES && Date.now() < until; i++) {
        const started = performance.now();
        await create();
        latencies.push(performance.now() - started);
        const asked = performance.now();
        await fetch(`${service.url}/healthz`).then((r) => r.arrayBuffer());
        health.push(performance.now() - asked);
      }
      const rss = await service.rss();
      return {
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        healthP50: percentile(health, 50),
        rss,
        creates: latencies.length,
        seedMs,
      };
    } finally {
      await service.stop();
    }
  } finally {
    await data.remove();
  }
}

export async function storeScale(): Promise<Row[]> {
  if (ENTRY === 'bundle') buildBundles();
  const out: Row[] = [
    {
      benchmark: 'store scale',
      figure: 'service measured',
      value:
        ENTRY === 'bundle'
          ? 'diff-review serve, built (dist/service/cli.js, as npm start)'
          : 'diff-review serve from TypeScript source (ENTRY=source)',
    },
  ];
  const bySize: (Measured & { size: number })[] = [];
  for (const size of SIZES) {
    const r = { size, ...(await measure(`store-${size}`, size, 0, false)) };
    bySize.push(r);
    out.push({
      benchmark: `store scale (seeded in ${r.seedMs} ms)`,
      figure: `${size.toLocaleString('en')} reviews: ${r.creates} creates`,
      value: '',
    });
  }
  const base = bySize[0];
  for (const r of bySize) {
    const name = `store scale ${r.size.toLocaleString('en')} reviews`;
    const last = r.size >= 100_000;
    out.push(
      {
        benchmark: name,
        figure: 'create p50',
        value: ms(r.p50),
        baseline: `${ms(base!.p50)} (${base!.size.toLocaleString('en')})`,
        ratio: ratio(r.p50, base!.p50),
        target: last ? '<= 2x' : undefined,
        pass: last ? r.p50 <= 2 * base!.p50 : undefined,
      },
      {
        benchmark: name,
        figure: 'create p99',
        value: ms(r.p99),
        baseline: `${ms(base!.p99)} (${base!.size.toLocaleString('en')})`,
        ratio: ratio(r.p99, base!.p99),
      },
      {
        benchmark: name,
        figure: 'RSS after the creates',
        value: mb(r.rss),
        baseline: mb(base!.rss),
        ratio: ratio(r.rss, base!.rss),
        target: last ? '< 300 MB' : undefined,
        pass: last ? r.rss < 300 * 1024 * 1024 : undefined,
      },
    );
  }
  const byKeys: (Measured & { keys: number })[] = [];
  for (const keys of KEYS) byKeys.push({ keys, ...(await measure(`keys-${keys}`, 1000, keys, true)) });
  const none = byKeys[0];
  for (const r of byKeys) {
    const name = `store scale ${r.keys.toLocaleString('en')} idempotency keys`;
    const last = r.keys >= 100_000;
    const baseline = (n: number) => `${ms(n)} (${none!.keys.toLocaleString('en')} keys)`;
    out.push(
      {
        benchmark: name,
        figure: `keyed create p50 (seeded in ${r.seedMs} ms)`,
        value: ms(r.p50),
        baseline: baseline(none!.p50),
        ratio: ratio(r.p50, none!.p50),
        target: last ? '<= 1.5x' : undefined,
        pass: last ? r.p50 <= 1.5 * none!.p50 : undefined,
      },
      {
        benchmark: name,
        figure: 'keyed create p99',
        value: ms(r.p99),
        baseline: baseline(none!.p99),
        ratio: ratio(r.p99, none!.p99),
      },
      {
        benchmark: name,
        figure: 'GET /healthz p50',
        value: ms(r.healthP50),
        baseline: baseline(none!.healthP50),
        ratio: ratio(r.healthP50, none!.healthP50),
      },
      {
        benchmark: name,
        figure: 'RSS after the creates',
        value: mb(r.rss),
        baseline: mb(none!.rss),
        ratio: ratio(r.rss, none!.rss),
      },
    );
  }
  return out;
}

await runIfMain(import.meta, 'Scale of the store', storeScale);
