// API throughput: GET /v1/reviews/{id} with a valid token on a completed review with 20 comments,
// autocannon at 100 connections for 10 s, beside a bare node:http server in the same run that
// answers the same bytes with no auth and no store (the limit for Node on this machine). The
// service runs at its default log level (info); every poll goes through Fastify's route and its
// hooks (token check, rate limit, serializer). The two are measured in interleaved rounds
// (ROUNDS × DURATION/ROUNDS seconds each), so a noisy neighbour on the machine hits both alike.
// Run: node test/bench/api-throughput.ts   (DURATION=seconds, default 10; ROUNDS, default 2)
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { load, ms, ratio, rps, runIfMain, tempDir, type ChildServer, type Load, type Row } from './support/harness.ts';
import { bareAnswering, serviceWithReview } from './support/review-to-poll.ts';

const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const CONNECTIONS = 100;

interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
  runs: Load[];
}

/** Sums interleaved runs into one figure: requests over time, and the worst p99 of the rounds. */
function combine(runs: Load[]): Load {
  const total = runs.reduce((n, r) => n + r.total, 0);
  return {
    rps: runs.reduce((n, r) => n + r.rps, 0) / runs.length,
    total,
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    max: Math.max(...runs.map((r) => r.max)),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

export async function apiThroughput(): Promise<Row[]> {
  const dataDir = await tempDir('api');
  const servers: ChildServer[] = [];
  try {
    const logFile = path.join(dataDir.dir, 'service.log');
    const served = await serviceWithReview(dataDir.dir, { logLevel: 'info', logFile });
    servers.push(served.server);
    const bare = await bareAnswering(served);
    servers.push(bare.server);

    const targets: Target[] = [
      { name: 'bare', url: bare.url, runs: [] },
      { name: 'service', url: served.url, headers: served.headers, runs: [] },
    ];
    for (const t of targets) await load({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration: 2 }); // warm-up (JIT)
    const lines = async () => (await readFile(logFile, 'utf8')).split('\n').length - 1;
    const linesBefore = await lines();
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of targets)
        t.runs.push(
          await load({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration: DURATION / ROUNDS }),
        );
    }
    const logLines = (await lines()) - linesBefore;
    const [baseline, service] = targets.map((t) => {
      const r = combine(t.runs);
      if (r.non2xx + r.errors > 0) throw new Error(`${t.name}: ${r.non2xx} non-2xx and ${r.errors} errors under load`);
      return r;
    }) as [Load, Load];

    const name = `GET review ${served.body.length} B`;
    return [
      { benchmark: name, figure: `bare node:http, ${CONNECTIONS} conn, ${DURATION} s`, value: rps(baseline.rps) },
      { benchmark: name, figure: 'bare node:http p99', value: ms(baseline.p99) },
      {
        benchmark: name,
        figure: 'service rps',
        value: rps(service.rps),
        baseline: rps(baseline.rps),
        ratio: ratio(service.rps, baseline.rps),
        target: '>= 0.5x',
        pass: service.rps >= 0.5 * baseline.rps,
      },
      {
        benchmark: name,
        figure: 'service p99',
        value: ms(service.p99),
        baseline: ms(baseline.p99),
        ratio: ratio(service.p99, baseline.p99),
        target: '< 25 ms',
        pass: service.p99 < 25,
      },
      {
        benchmark: name,
        figure: 'service log lines per 200 (log level info)',
        value: (logLines / Math.max(1, service.total)).toFixed(2),
      },
    ];
  } finally {
    for (const s of servers) await s.stop();
    await dataDir.remove();
  }
}

await runIfMain(import.meta, 'API throughput', apiThroughput);
