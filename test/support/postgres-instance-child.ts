// One service instance in PostgreSQL mode as a child process, for multi-process tests that need a
// controlled review worker (test/fixtures/workers/controlled-worker.ts: "SLEEP <ms>" diffs keep a
// review running): createService() as `serve` calls it, logging JSON lines to stdout. SIGTERM
// stops it gracefully, as it does `serve`; SIGKILL is the crash under test.
import { createService } from '../../service/service.ts';

const options = JSON.parse(process.env.INSTANCE_OPTIONS ?? '{}') as {
  databaseUrl: string;
  dashboardToken: string;
  concurrency?: number;
  shutdownGraceMs?: number;
  rateLimits?: { create?: number; read?: number; tokens?: number };
};
const service = await createService({
  ...options,
  port: 0,
  logLevel: 'info',
  workerFile: new URL('../fixtures/workers/controlled-worker.ts', import.meta.url),
});
process.once('SIGTERM', () => void service.close().then(() => process.exit(0)));
