// What a data dir holds besides the lowdb document, looked at once on start: to tell a fresh data
// dir from one whose document went missing (then starting empty would lose everything it listed),
// and to find what a crash left behind (orphan diffs and results, half-written temp files).
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { REVIEW_ID } from '../api/schemas.ts';
import { IDEMPOTENCY_DIR } from './idempotency-log.ts';
import { ARCHIVE_DIR } from './review-archive.ts';
import { DIFFS_DIR, RESULTS_DIR, type ReviewFiles } from './review-files.ts';
import type { StoreLog } from './store-log.ts';

export interface DataDirSurvey {
  /** Review ids with a diff file. */
  diffs: string[];
  /** Review ids with a results file. */
  results: string[];
  archiveSegments: number;
  keySegments: number;
  /** True when the dashboard-token file is there: tokens were minted, and the document kept them. */
  dashboardToken: boolean;
  /** Temp files of writes that never finished (temp + rename), with their paths. */
  temps: string[];
}

const TEMP = /\.tmp$/;

/** The file the dashboard token's secret is written to (service/auth/dashboard-token.ts). */
export const DASHBOARD_TOKEN_FILE = 'dashboard-token';

export async function surveyDataDir(dataDir: string): Promise<DataDirSurvey> {
  const [root, diffs, results, archive, keys] = await Promise.all(
    ['', DIFFS_DIR, RESULTS_DIR, ARCHIVE_DIR, IDEMPOTENCY_DIR].map((dir) => namesIn(path.join(dataDir, dir))),
  );
  const temps: string[] = [];
  for (const [dir, names] of [
    ['', root],
    [DIFFS_DIR, diffs],
    [RESULTS_DIR, results],
    [ARCHIVE_DIR, archive],
    [IDEMPOTENCY_DIR, keys],
  ] as const) {
    for (const name of names!) if (TEMP.test(name)) temps.push(path.join(dataDir, dir, name));
  }
  return {
    diffs: idsOf(diffs!, '.diff'),
    results: idsOf(results!, '.json'),
    archiveSegments: archive!.filter((name) => name.endsWith('.jsonl')).length,
    keySegments: keys!.filter((name) => name.endsWith('.jsonl')).length,
    dashboardToken: root!.includes(DASHBOARD_TOKEN_FILE),
    temps,
  };
}

/**
 * True when the data dir holds data of earlier runs (what a missing document would have listed):
 * reviews' files, or only the dashboard-token file, once every review aged out (the review tokens
 * minted with it were in the document).
 */
export const holdsReviewData = (s: DataDirSurvey) =>
  s.diffs.length + s.results.length + s.archiveSegments + s.keySegments > 0 || s.dashboardToken;

/** "5 diffs, 1 results file, 2 archive segments": what a survey found, for a message. */
export function describeSurvey(s: DataDirSurvey): string {
  const parts = [
    [s.diffs.length, 'diff', 'diffs'],
    [s.results.length, 'results file', 'results files'],
    [s.archiveSegments, 'archive segment of older reviews', 'archive segments of older reviews'],
    [s.keySegments, 'idempotency-key segment', 'idempotency-key segments'],
  ] as const;
  const found = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  if (s.dashboardToken) found.push(`a ${DASHBOARD_TOKEN_FILE} file (the tokens minted with it were in the store file)`);
  return found.join(', ');
}

/**
 * Deletes what earlier runs left behind (diffs may hold secrets): diffs no waiting job needs (of a
 * create that crashed before its record was written, or of a finished job whose delete failed),
 * results of reviews the store no longer has (retention stopped between the record and its files),
 * and temp files of writes cut short. Counts are logged, never names of contents.
 */
export async function sweepLeftovers(
  survey: DataDirSurvey,
  files: ReviewFiles,
  needed: { diff(id: string): boolean; results(id: string): boolean },
  log: StoreLog,
): Promise<void> {
  const diffs = survey.diffs.filter((id) => !needed.diff(id));
  const results = survey.results.filter((id) => !needed.results(id));
  await Promise.all([
    ...diffs.map((id) => files.deleteDiff(id)),
    ...results.map((id) => files.deleteFindings(id)),
    ...survey.temps.map((file) => rm(file, { force: true })),
  ]);
  if (diffs.length + results.length + survey.temps.length > 0) {
    log.warn(
      { diffs: diffs.length, results: results.length, temps: survey.temps.length },
      'swept what earlier runs left behind: diffs no job waits for, results of deleted reviews, temp files of writes cut short',
    );
  }
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function idsOf(names: string[], ext: string): string[] {
  return names
    .filter((n) => n.endsWith(ext))
    .map((n) => n.slice(0, -ext.length))
    .filter((id) => REVIEW_ID.test(id));
}
