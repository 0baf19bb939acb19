// The stream of 1 MB reviews of test/bench/polling-while-busy.ts, in a worker thread of its own:
// building and sending 1 MB bodies and polling for their end takes milliseconds of event loop at
// a time, and on the load generator's thread that time would show up as the service's latency.
// Keeps `lanes` reviews queued or running until told to stop, then reports what ended how.
import { parentPort, workerData } from 'node:worker_threads';
import { codeDiff, waitTerminal } from './harness.ts';

export interface FeederConfig {
  url: string;
  token: string;
  lanes: number;
}
export interface FeederReport {
  reviewed: number;
  failed: number;
}

const { url, token, lanes } = workerData as FeederConfig;
// The bodies are built once: the feeder should spend its time sending, not stringifying.
const bodies = [1, 2, 3, 4].map((seed) =>
  JSON.stringify({ diff: codeDiff(1_000_000, seed), repository: 'github.com/bench/repo' }),
);
let feeding = true;
let reviewed = 0;
let failed = 0;
parentPort!.on('message', (m: string) => {
  if (m === 'stop') feeding = false;
});

async function lane(index: number) {
  for (let n = 0; feeding && n < 10_000; n++) {
    const response = await fetch(`${url}/v1/reviews`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: bodies[(index + n) % bodies.length],
    });
    if (response.status !== 202) throw new Error(`create answered ${response.status}: ${await response.text()}`);
    const id = ((await response.json()) as { review_id: string }).review_id;
    const job = await waitTerminal(url, token, id, 120_000, 100);
    if (job.status === 'completed') reviewed++;
    else failed++;
  }
}

parentPort!.postMessage('started');
await Promise.all(Array.from({ length: lanes }, (_, i) => lane(i)));
parentPort!.postMessage({ reviewed, failed } satisfies FeederReport);
