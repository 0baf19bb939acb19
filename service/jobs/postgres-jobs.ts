// Jobs and their events in PostgreSQL mode, wired together: the pg-boss runner, and the listener
// that hears every instance's review and token changes. A review change is re-read and told to this
// instance's followers (SSE, of the review or of its owner); a review this instance runs that ended elsewhere is stopped (a
// cancel); a deleted one leaves the in-memory copies, and a changed token is read again. After the
// listener (re)connects, everything followed is re-read, so no terminal event is missed.
import type { PostgresStore } from '../store/postgres/postgres-store.ts';
import { ReviewChanges } from '../store/postgres/review-changes.ts';
import { PostgresReviewJobs } from '../store/postgres/review-jobs.ts';
import type { ReviewJobRunner, JobRunnerSettings } from './job-runner-contract.ts';
import { PgBossRunner } from './pg-boss-runner.ts';

export interface PostgresJobsOptions extends JobRunnerSettings {
  databaseUrl: string;
  store: PostgresStore;
}

export async function startPostgresJobs(options: PostgresJobsOptions): Promise<ReviewJobRunner> {
  const { store, events, log } = options;
  const runner = await PgBossRunner.start({
    ...options,
    pool: store.pool,
    jobs: new PostgresReviewJobs(store.pool),
    files: store,
  });
  const retell = (reviewId: string) =>
    void store.getReview(reviewId).then(
      (review) => review && events.changed(review),
      () => {}, // the database is away: the next (re)connect re-reads
    );
  let changes: ReviewChanges;
  try {
    changes = await ReviewChanges.listen(
      options.databaseUrl,
      {
        reviewChanged(reviewId, status) {
          runner.reviewChanged(reviewId, status);
          if (status === 'deleted') store.atHand.forget(reviewId);
          // The payload names no owner: with an owner-wide stream open here, every change is read.
          else if (events.followed(reviewId) || events.followsOwners()) retell(reviewId);
        },
        tokenChanged: (tokenId) => void store.atHand.tokenChanged(tokenId).catch(() => {}),
        jobQueued: () => runner.jobQueued(),
        onListening() {
          void store.atHand.reloadTokens().catch(() => {});
          for (const reviewId of events.followedReviews()) retell(reviewId);
          events.resync();
        },
        onLost: () => store.atHand.distrust(),
      },
      log,
    );
  } catch (error) {
    await runner.close(0);
    throw error;
  }
  return {
    get backlog() {
      return runner.backlog;
    },
    enqueue: (reviewId) => runner.enqueue(reviewId),
    recover: () => runner.recover(),
    stop: (reviewId, reason) => runner.stop(reviewId, reason),
    async close(graceMs) {
      await runner.close(graceMs);
      await changes.close();
    },
  };
}
