// What the instances on one database coordinate through it, beside the records: which one runs
// a periodic task this period, and counts shared by all (the rate limits' windows).
import type pg from 'pg';
import { write } from './queries.ts';

/**
 * True for the one instance that should run `task` now: the first to ask once `periodMs` has
 * passed since the last run (at `now`). One row per task; its lock orders the askers.
 */
export async function claimPeriodicTask(pool: pg.Pool, task: string, periodMs: number, now: string): Promise<boolean> {
  const { rowCount } = await write(
    pool,
    `INSERT INTO periodic_runs (task, last_run) VALUES ($1, $2)
     ON CONFLICT (task) DO UPDATE SET last_run = EXCLUDED.last_run
     WHERE periodic_runs.last_run <= $2::timestamptz - $3 * interval '1 millisecond'`,
    [task, now, periodMs],
  );
  return rowCount === 1;
}

/**
 * Counts one more event under `key` in its current window (a new window of `windowMs` starts
 * once the last has ended), atomically across instances, by the database's clock.
 */
export async function countInWindow(
  pool: pg.Pool,
  key: string,
  windowMs: number,
): Promise<{ count: number; msLeft: number }> {
  const { rows } = await write<{ count: number; ms_left: number }>(
    pool,
    `INSERT INTO window_counters AS c (key, count, window_ends) VALUES ($1, 1, now() + $2 * interval '1 millisecond')
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN c.window_ends <= now() THEN 1 ELSE c.count + 1 END,
       window_ends = CASE WHEN c.window_ends <= now() THEN EXCLUDED.window_ends ELSE c.window_ends END
     RETURNING count, LEAST($2, floor(extract(epoch FROM window_ends - now()) * 1000))::int AS ms_left`,
    [key, windowMs],
  );
  return { count: rows[0]!.count, msLeft: Math.max(0, rows[0]!.ms_left) };
}
