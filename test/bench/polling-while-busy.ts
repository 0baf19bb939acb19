// Polling while busy: p99 latency of GET /v1/reviews/{id} while the runner reviews a stream of
// 1 MB diffs at full concurrency (the default: one worker per core), against the p99 of the same
// polling with the runner idle, in the same run. Polling is a steady RATE (default 500 requests/s
// over 10 connections, as many clients polling would), not a flood: the figure is how long a poll
// waits, not how many fit. Target: busy p99 under 2x idle p99. Also shows the HTTP thread's
// event-loop delay in both phases (the review must not run on it), and the load generator's own:
// the stream of creates is sent from a worker thread (support/feeder.ts), so that building and
// sending 1 MB bodies does not stall the event loop that times the polls.
// Run: node test/bench/polling-while-busy.ts   (DURATION=seconds, default 10; RATE)
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { FeederConfig, FeederReport } from './support/feeder.ts';
import { createReview, debuggerDiff, load, ms, ratio, reviewToken, runIfMain, sleep, startChild, tempDir, waitTerminal, type Row } from './support/harness.ts';

const DURATION = Number(process.env.DURATION ?? 10);
const RATE = Number(process.env.RATE ?? 500);

export async function pollingWhileBusy(): Promise<Row[]> {
  const data = await tempDir('polling');
  const service = await startChild({ mode: 'service', dataDir: data.dir });
  try {
    const token = await reviewToken(service.url, service.dashboardToken!);
    const id = await createReview(service.url, token, debuggerDiff(20));
    await waitTerminal(service.url, token, id);
    const poll = { url: `${service.url}/v1/reviews/${id}`, headers: { authorization: `Bearer ${token}` }, connections: 10, overallRate: RATE };
    await load({ ...poll, duration: 2 });

    const generatorLoop = monitorEventLoopDelay({ resolution: 5 });
    generatorLoop.enable();
    await service.stats();
    const idle = await load({ ...poll, duration: DURATION });
    const idleLoop = (await service.stats()).loopDelay;
    const idleGenerator = generatorLoop.percentile(99) / 1e6;

    // The stream: keep twice the workers' number of 1 MB reviews queued or running at all times.
    const inFlight = 2 * os.availableParallelism();
    const feeder = new Worker(new URL('./support/feeder.ts', import.meta.url), {
      workerData: { url: service.url, token, lanes: inFlight } satisfies FeederConfig,
    });
    const fed = new Promise<FeederReport>((resolve, reject) => {
      feeder.on('message', (m: FeederReport | string) => typeof m === 'object' && resolve(m));
      feeder.once('error', reject);
      feeder.once('exit', (code) => reject(new Error(`the feeder exited with ${code} before reporting`)));
    });
    await new Promise<void>((resolve, reject) => {
      feeder.once('message', () => resolve());
      feeder.once('error', reject);
    });
    await sleep(1500); // the workers are up and busy
    await service.stats();
    generatorLoop.reset();
    const busy = await load({ ...poll, duration: DURATION });
    const busyLoop = (await service.stats()).loopDelay;
    const busyGenerator = generatorLoop.percentile(99) / 1e6;
    generatorLoop.disable();
    feeder.postMessage('stop');
    const { reviewed, failed } = await fed;
    await feeder.terminate();
    for (const r of [idle, busy]) if (r.non2xx + r.errors > 0) throw new Error(`${r.non2xx} non-2xx and ${r.errors} errors while polling`);

    const name = `GET poll at ${RATE}/s, 10 conn, ${DURATION} s`;
    return [
      { benchmark: name, figure: 'idle p50', value: ms(idle.p50) },
      { benchmark: name, figure: 'idle p99', value: ms(idle.p99) },
      { benchmark: name, figure: `busy (${inFlight} × 1 MB in flight) p50`, value: ms(busy.p50), baseline: ms(idle.p50), ratio: ratio(busy.p50, idle.p50) },
      { benchmark: name, figure: `busy p99`, value: ms(busy.p99), baseline: ms(idle.p99), ratio: ratio(busy.p99, idle.p99), target: '< 2x idle', pass: busy.p99 < 2 * idle.p99 },
      { benchmark: name, figure: '1 MB reviews finished during the run', value: `${reviewed} completed, ${failed} failed` },
      { benchmark: name, figure: 'HTTP event-loop delay p99, busy', value: ms(busyLoop.p99), baseline: ms(idleLoop.p99), ratio: ratio(busyLoop.p99, idleLoop.p99) },
      { benchmark: name, figure: 'load generator event-loop delay p99, busy', value: ms(busyGenerator), baseline: ms(idleGenerator), ratio: ratio(busyGenerator, idleGenerator) },
    ];
  } finally {
    await service.stop();
    await data.remove();
  }
}

await runIfMain(import.meta, 'Polling while busy', pollingWhileBusy);
