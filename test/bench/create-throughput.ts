// Create throughput: POST /v1/reviews with 10 KB diffs, then with 1,000,000-byte diffs: requests
// per second and p99, beside a bare node:http server in the same run that reads the same bodies
// and answers the same 202 bytes (no validation, no store, no queue). The service keeps its
// runner on (default concurrency): the jobs the creates queue are reviewed meanwhile, as they
// would be. Rate limits are off and the queue unbounded, so every answer is a 202.
// Run: node test/bench/create-throughput.ts   (DURATION=seconds, default 10)
import {
  createReview,
  codeDiff,
  load,
  ms,
  ratio,
  reviewToken,
  rps,
  runIfMain,
  startChild,
  tempDir,
  type Row,
} from './support/harness.ts';

const DURATION = Number(process.env.DURATION ?? 10);
/** 1 MB bodies: bounded by count too, so a run writes at most ~0.5 GB of diffs to the temp dir. */
const CASES = [
  { name: '10 KB diff', bytes: 10_000, connections: 50, amount: undefined as number | undefined },
  { name: '1,000,000-byte diff', bytes: 1_000_000, connections: 10, amount: 500 },
];

export async function createThroughput(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const c of CASES) {
    const data = await tempDir('create');
    const service = await startChild({ mode: 'service', dataDir: data.dir });
    try {
      const token = await reviewToken(service.url, service.dashboardToken!);
      const body = JSON.stringify({ diff: codeDiff(c.bytes), repository: 'github.com/bench/repo' });
      // The answer the bare server gives: a real create response.
      const id = await createReview(service.url, token, JSON.parse(body).diff);
      const created = await (
        await fetch(`${service.url}/v1/reviews/${id}`, { headers: { authorization: `Bearer ${token}` } })
      ).text();
      const bare = await startChild({
        mode: 'bare',
        status: 202,
        contentType: 'application/json; charset=utf-8',
        bodyBase64: Buffer.from(created).toString('base64'),
        headers: { location: `/v1/reviews/${id}` },
      });
      const post = {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        connections: c.connections,
        duration: DURATION,
        amount: c.amount,
      };
      await load({ ...post, url: `${bare.url}/v1/reviews`, duration: 2, amount: undefined });
      const baseline = await load({ ...post, url: `${bare.url}/v1/reviews` });
      await bare.stop();
      const headers = { ...post.headers, authorization: `Bearer ${token}` };
      const measured = await load({ ...post, headers, url: `${service.url}/v1/reviews` });
      if (measured.non2xx + measured.errors > 0)
        throw new Error(`${c.name}: ${measured.non2xx} non-2xx and ${measured.errors} errors`);
      const name = `create, ${c.name}, ${c.connections} conn`;
      rows.push(
        {
          benchmark: name,
          figure: 'service rps',
          value: rps(measured.rps),
          baseline: rps(baseline.rps),
          ratio: ratio(measured.rps, baseline.rps),
        },
        {
          benchmark: name,
          figure: 'service p50',
          value: ms(measured.p50),
          baseline: ms(baseline.p50),
          ratio: ratio(measured.p50, baseline.p50),
        },
        {
          benchmark: name,
          figure: 'service p99',
          value: ms(measured.p99),
          baseline: ms(baseline.p99),
          ratio: ratio(measured.p99, baseline.p99),
        },
        { benchmark: name, figure: 'creates answered 202', value: measured.total.toLocaleString('en') },
      );
    } finally {
      await service.stop();
      await data.remove();
    }
  }
  return rows;
}

await runIfMain(import.meta, 'Create throughput', createThroughput);
