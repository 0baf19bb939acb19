// What the service asks of a job runner, whichever runs the jobs: the in-process p-queue of lowdb
// mode (in-process-runner.ts) or pg-boss, shared by every instance, in PostgreSQL mode (pg-boss-runner.ts).
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { EngineConfig } from '../engine/types.ts';
import type { ReviewEvents } from './review-events.ts';

/** What every runner needs to review: where to tell, how many at once, how long at most, with what. */
export interface JobRunnerSettings {
  events: ReviewEvents;
  clock: Clock;
  log: Logger;
  /** Jobs this process reviews at once (worker threads). */
  concurrency: number;
  /** A job still running after this fails with `timeout`. */
  jobTimeoutMs: number;
  engine?: EngineConfig;
  workerFile: URL | string;
}

/** Why a running job's worker was stopped. */
export type StopReason = 'timeout' | 'cancelled' | 'shutdown';

export interface ReviewJobRunner {
  /** Jobs waiting for a worker: this process's (lowdb), or every instance's as last counted (PostgreSQL). */
  readonly backlog: number;
  /** Hands a saved review to the workers. Resolves once the job is durable (it then survives any restart). */
  enqueue(reviewId: string): void | Promise<void>;
  /** Puts the jobs a stop left unfinished back in line; resolves with how many. */
  recover(): Promise<number>;
  /** Stops the worker of a running job (the caller has already marked it failed). */
  stop(reviewId: string, reason: StopReason): void;
  /** Stops taking work, gives running jobs `graceMs` to finish, and hands the rest back. */
  close(graceMs: number): Promise<void>;
}
