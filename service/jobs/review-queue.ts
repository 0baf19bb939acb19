// The pg-boss queue of review jobs in PostgreSQL mode: how pg-boss is started and the queue set up
// (heartbeat and expiry tuned so a dead instance's jobs run elsewhere within seconds, not pg-boss's
// default minutes), and the job id each review gets.
import { createHash } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { libpqConnectionString } from '../store/postgres/database-url.ts';

export const QUEUE = 'diff-review-reviews';

export interface ReviewQueueOptions {
  databaseUrl: string;
  /** A running job whose heartbeat stops this long is given to another instance (pg-boss's least: 10). */
  heartbeatSeconds: number;
  jobTimeoutMs: number;
  log: Pick<Logger, 'warn'>;
}

/** Installs (or upgrades) pg-boss's schema and creates the queue; answers the started pg-boss. */
export async function startReviewQueue(options: ReviewQueueOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: libpqConnectionString(options.databaseUrl),
    max: 3,
    application_name: 'diff-review pg-boss',
    schedule: false,
    // The supervisor fails jobs whose heartbeat stopped; it looks this often (default 60 s).
    superviseIntervalSeconds: 2,
    monitorIntervalSeconds: 2,
  });
  // never the job's data or the connection string: only what went wrong
  boss.on('error', (error: Error & { code?: string }) =>
    options.log.warn({ code: error.code, err: { message: error.message } }, 'pg-boss reported an error'),
  );
  await boss.start();
  await boss.createQueue(QUEUE, {
    heartbeatSeconds: options.heartbeatSeconds,
    // pg-boss's own limit is only a backstop: the review's time limit is kept by its instance.
    expireInSeconds: Math.ceil(options.jobTimeoutMs / 1000) + 60,
    retryLimit: 100,
    retryDelay: 0,
    deleteAfterSeconds: 24 * 60 * 60,
  });
  return boss;
}

/** The pg-boss job id of a review: a UUID made from its id, so that a second send of it is a no-op. */
export function jobIdOf(reviewId: string): string {
  const hex = createHash('sha256').update(reviewId).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
