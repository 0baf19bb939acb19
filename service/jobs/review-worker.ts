// Runs in a worker thread (piscina): the CPU work of a review, off the HTTP event loop.
// Expected failures come back as values; errors only cross the thread boundary as plain Errors.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { isMainThread } from 'node:worker_threads';
import { createEngine, type Engine } from '../engine/index.ts';
import {
  InvalidDiffError,
  ReviewStoppedError,
  type EngineConfig,
  type Finding,
  type SuppressedFinding,
} from '../engine/types.ts';

/**
 * A review is background work; answering a poll is not. On Linux every thread has a nice value
 * of its own, so a worker thread lowers its own (never the HTTP thread's): when both want a core,
 * the HTTP thread gets it at once instead of waiting out the scheduler's time slice, and when the
 * machine is otherwise idle the review runs exactly as fast as before. Elsewhere the call would
 * renice the whole process, so it is not made there. test/bench/polling-while-busy.ts measures it.
 */
export const WORKER_NICE = 10;
if (!isMainThread && process.platform === 'linux') {
  try {
    if (os.getPriority() < WORKER_NICE) os.setPriority(WORKER_NICE);
  } catch {
    // not allowed here (a sandbox): reviews still run, at the usual priority
  }
}

/**
 * The diff itself, or the file it is in. The runner sends the file's path: the worker reads and
 * decodes it on its own thread, so the HTTP thread neither holds a large diff nor copies it across.
 */
export type ReviewTask = ({ diff: string; diffFile?: undefined } | { diff?: undefined; diffFile: string }) & {
  engine?: EngineConfig;
  /** Shared with the runner, which sets its first element to ask the review to stop (see in-process-runner.ts). */
  stop?: Int32Array;
};

/** Whether the runner has asked this task to stop. */
export function stopRequested(task: ReviewTask): boolean {
  return task.stop !== undefined && Atomics.load(task.stop, 0) !== 0;
}

/** The diff of a task, read from its file when it was sent by path. */
export async function taskDiff(task: ReviewTask): Promise<string> {
  return task.diff ?? readFile(task.diffFile!, 'utf8');
}

export type ReviewTaskResult =
  | {
      ok: true;
      findings: Finding[];
      /** What inline comments suppressed: kept with the findings, for SARIF and the dashboard, never as comments. */
      suppressed: SuppressedFinding[];
      stats: { files: number; addedLines: number };
    }
  | { ok: false; code: 'invalid_diff'; message: string }
  | { ok: false; code: 'stopped' };

/** One engine per configuration (the service has one): its plans, keyword matchers and tables are built once per thread. */
const engines = new Map<string, Engine>();

function engineFor(config: EngineConfig | undefined): Engine {
  const key = JSON.stringify(config ?? {});
  let engine = engines.get(key);
  if (!engine) {
    if (engines.size >= 8) engines.clear();
    engines.set(key, (engine = createEngine(config)));
  }
  return engine;
}

export default async function runReviewTask(task: ReviewTask): Promise<ReviewTaskResult> {
  try {
    const diff = await taskDiff(task);
    const { findings, suppressed, stats } = await engineFor(task.engine).review(diff, {
      stopped: () => stopRequested(task),
    });
    return { ok: true, findings, suppressed, stats };
  } catch (error) {
    if (error instanceof InvalidDiffError) return { ok: false, code: 'invalid_diff', message: error.message };
    if (error instanceof ReviewStoppedError) return { ok: false, code: 'stopped' };
    throw error;
  }
}
