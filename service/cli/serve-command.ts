// `diff-review serve`: runs the service until SIGINT/SIGTERM. Imported only when the command runs
// (it loads Fastify, pino and the store).
import { createService } from '../service.ts';

export interface ServeFlags {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  databasePoolSize: number;
  concurrency?: number;
  jobTimeout: number;
  retentionDays: number;
  maxQueued: number;
  rateLimit: number;
  createRateLimit: number;
  maxEventStreams: number;
  maxEventStreamsPerToken: number;
  eventStreamLifetime: number;
  allowedHosts: string[];
  logLevel: string;
}

export async function serve(flags: ServeFlags) {
  const service = await createService({
    host: flags.host,
    port: flags.port,
    dataDir: flags.dataDir,
    databaseUrl: flags.databaseUrl || undefined,
    databasePoolSize: flags.databasePoolSize,
    concurrency: flags.concurrency,
    jobTimeoutMs: flags.jobTimeout * 1000,
    retentionDays: flags.retentionDays,
    maxQueuedJobs: flags.maxQueued,
    rateLimits: { read: flags.rateLimit, create: flags.createRateLimit },
    eventStreams: {
      total: flags.maxEventStreams,
      perToken: flags.maxEventStreamsPerToken,
      lifetimeMs: flags.eventStreamLifetime * 1000,
    },
    allowedHosts: flags.allowedHosts,
    logLevel: flags.logLevel,
    dashboardToken: process.env.DIFF_REVIEW_DASHBOARD_TOKEN || undefined,
  });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(1); // a second signal: the user does not want to wait
    }
    stopping = true;
    service.log.info({ signal }, 'stopping: finishing running reviews');
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        service.log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
