// The process a benchmark loads: either the real service (createService) or a bare node:http
// server answering fixed bytes (the baseline: no framework, no auth, no store). One process per
// server, so the load generator (the parent) never shares an event loop with what it measures.
// Talks to the parent over IPC: 'ready' once listening, 'stats' on request, exits on 'stop'.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readFile } from 'node:fs/promises';
import { createService } from '../../../service/service.ts';

export type ChildConfig =
  | { mode: 'bare'; status: number; contentType: string; bodyBase64: string; headers?: Record<string, string> }
  | {
      mode: 'service';
      dataDir: string;
      /** PostgreSQL mode (test/bench/postgres-instances.ts): the database, and the dashboard token all instances share. */
      databaseUrl?: string;
      dashboardToken?: string;
      /** Another review worker (the controlled one of test/fixtures: "SLEEP <ms>" diffs). */
      workerFile?: string;
      logLevel?: string;
      concurrency?: number;
      maxQueuedJobs?: number;
      jobTimeoutMs?: number;
    };

export interface ChildStats {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** Event-loop delay since the last stats call, ms: how late a 5 ms timer fired (the interval itself taken off). */
  loopDelay: { p50: number; p99: number; max: number };
}

const config = JSON.parse(process.env.BENCH_CHILD_CONFIG ?? '{}') as ChildConfig;
const LOOP_RESOLUTION_MS = 5; // coarse on purpose: a timer every millisecond would keep an idle server awake, and change what is measured
const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
/** The histogram holds whole intervals (a timer of 5 ms that fired on time reads 5 ms): the delay is the rest. */
const delay = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
loop.enable();
const send = (message: object) => process.send?.(message);

let stop: () => Promise<void>;
if (config.mode === 'bare') {
  const body = Buffer.from(config.bodyBase64, 'base64');
  const headers = { 'content-type': config.contentType, 'content-length': String(body.length), ...config.headers };
  const server = http.createServer({ keepAliveTimeout: 5000 }, (request, response) => {
    // Read the whole body, as the service must, then answer the same bytes every time.
    request.on('data', () => {});
    request.on('end', () => {
      response.writeHead(config.status, headers);
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  stop = () => new Promise((resolve) => server.close(() => resolve()).closeAllConnections());
  send({ type: 'ready', url: `http://127.0.0.1:${port}` });
} else {
  const service = await createService({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    dashboardToken: config.dashboardToken,
    workerFile: config.workerFile,
    port: 0,
    logLevel: config.logLevel,
    concurrency: config.concurrency,
    maxQueuedJobs: config.maxQueuedJobs ?? 1_000_000,
    jobTimeoutMs: config.jobTimeoutMs,
    // A benchmark measures the server, not the limiter's 429s.
    rateLimits: { read: 0, create: 0, tokens: 0 },
  });
  stop = () => service.close();
  send({
    type: 'ready',
    url: service.url,
    dashboardToken: config.dashboardToken ?? (await readFile(service.dashboardTokenFile!, 'utf8')).trim(),
  });
}

process.on('message', (message: { type: string }) => {
  if (message.type === 'stats') {
    const stats: ChildStats = {
      rss: process.memoryUsage().rss,
      heapUsed: process.memoryUsage().heapUsed,
      heapTotal: process.memoryUsage().heapTotal,
      external: process.memoryUsage().external + process.memoryUsage().arrayBuffers,
      loopDelay: { p50: delay(loop.percentile(50)), p99: delay(loop.percentile(99)), max: delay(loop.max) },
    };
    loop.reset();
    send({ type: 'stats', stats });
  } else if (message.type === 'stop') {
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  }
});
process.on('disconnect', () => process.exit(0));
