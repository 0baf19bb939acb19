// Polling while busy: p99 latency of GET /v1/reviews/{id} while the runner reviews a stream of
// 1 MB diffs at full concurrency (the default: one worker per core), against the p99 of the same
// polling with the runner idle, in the same run. Target: busy p99 under 2x idle p99.
//
// Polling is a steady RATE (default 500 requests/s, evenly spaced, over 10 keep-alive
// connections, as many clients polling would), timed to the microsecond (support/steady-poll.ts):
// the figure is how long a poll waits, not how many fit. The stream of creates is sent from a
// worker thread (support/feeder.ts), so that building and sending 1 MB bodies does not stall the
// thread that times the polls. A control in the same run: a bare node:http server answering the
// same bytes, polled the same way while idle and while the service is just as busy. It is the
// floor: how much the machine alone (both cores taken by reviews, the feeder and the poller) slows
// a server that does nothing. Also shown: the service's HTTP event-loop delay, and how late the
// poller itself sent its requests.
// Run: node test/bench/polling-while-busy.ts   (DURATION=seconds, default 10; RATE)
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FeederConfig, FeederReport } from './support/feeder.ts';
import { ms, ratio, runIfMain, sleep, tempDir, type ChildServer, type Row } from './support/harness.ts';
import { bareAnswering, serviceWithReview } from './support/review-to-poll.ts';
import { steadyPoll, type SteadyPollResult } from './support/steady-poll.ts';

const DURATION = Number(process.env.DURATION ?? 10);
const RATE = Number(process.env.RATE ?? 500);
const CONNECTIONS = 10;

export async function pollingWhileBusy(): Promise<Row[]> {
  const data = await tempDir('polling');
  const servers: ChildServer[] = [];
  try {
    const served = await serviceWithReview(data.dir);
    const { server: service, token, url, headers } = served;
    servers.push(service);
    const bare = await bareAnswering(served);
    servers.push(bare.server);
    const poll = (target: string, seconds = DURATION) =>
      steadyPoll({ url: target, headers, rate: RATE, seconds, connections: CONNECTIONS });
    const bareUrl = bare.url;
    await poll(url, 2); // warm-up (JIT, connections)
    await poll(bareUrl, 2);

    await service.stats();
    const idle = await poll(url);
    const idleLoop = (await service.stats()).loopDelay;
    const bareIdle = await poll(bareUrl, DURATION / 2);

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
    const busy = await poll(url);
    const busyLoop = (await service.stats()).loopDelay;
    const bareBusy = await poll(bareUrl, DURATION / 2);
    feeder.postMessage('stop');
    const { reviewed, failed } = await fed;
    await feeder.terminate();
    const phases: [string, SteadyPollResult][] = [
      ['idle', idle],
      ['busy', busy],
      ['bare idle', bareIdle],
      ['bare busy', bareBusy],
    ];
    for (const [phase, r] of phases)
      if (r.errors > 0) throw new Error(`${phase}: ${r.errors} of ${r.requests} polls failed`);

    const name = `GET poll at ${RATE}/s, ${CONNECTIONS} conn, ${DURATION} s`;
    return [
      { benchmark: name, figure: 'idle p50', value: ms(idle.p50) },
      { benchmark: name, figure: 'idle p99', value: ms(idle.p99) },
      {
        benchmark: name,
        figure: `busy (${inFlight} × 1 MB in flight) p50`,
        value: ms(busy.p50),
        baseline: ms(idle.p50),
        ratio: ratio(busy.p50, idle.p50),
      },
      {
        benchmark: name,
        figure: 'busy p90',
        value: ms(busy.p90),
        baseline: ms(idle.p90),
        ratio: ratio(busy.p90, idle.p90),
      },
      {
        benchmark: name,
        figure: 'busy p99',
        value: ms(busy.p99),
        baseline: ms(idle.p99),
        ratio: ratio(busy.p99, idle.p99),
        target: '< 2x idle',
        pass: busy.p99 < 2 * idle.p99,
      },
      {
        benchmark: name,
        figure: '1 MB reviews finished during the run',
        value: `${reviewed} completed, ${failed} failed`,
      },
      {
        benchmark: name,
        figure: 'control: bare node:http p99, machine busy',
        value: ms(bareBusy.p99),
        baseline: `${ms(bareIdle.p99)} (idle)`,
        ratio: ratio(bareBusy.p99, bareIdle.p99),
      },
      { benchmark: name, figure: 'service busy p99 ÷ bare busy p99', value: ratio(busy.p99, bareBusy.p99) },
      {
        benchmark: name,
        figure: 'HTTP event-loop delay p99, busy',
        value: ms(busyLoop.p99),
        baseline: ms(idleLoop.p99),
        ratio: ratio(busyLoop.p99, idleLoop.p99),
      },
      {
        benchmark: name,
        figure: 'poller sending late p99, busy',
        value: ms(busy.lateP99),
        baseline: ms(idle.lateP99),
        ratio: ratio(busy.lateP99, idle.lateP99),
      },
    ];
  } finally {
    for (const s of servers) await s.stop();
    await data.remove();
  }
}

await runIfMain(import.meta, 'Polling while busy', pollingWhileBusy);
