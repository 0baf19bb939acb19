// One file per review beside the lowdb document: the diff while the job waits, the findings once
// it is done. Keeping them out of the document keeps each document write small.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REVIEW_ID } from '../api/schemas.ts';
import type { StoredFinding } from './flagged-lines.ts';

export const DIFFS_DIR = 'diffs';
export const RESULTS_DIR = 'results';

export class ReviewFiles {
  readonly #diffs: string;
  readonly #results: string;

  constructor(dataDir: string) {
    this.#diffs = path.join(dataDir, DIFFS_DIR);
    this.#results = path.join(dataDir, RESULTS_DIR);
  }

  async init(): Promise<void> {
    await mkdir(this.#diffs, { recursive: true, mode: 0o700 });
    await mkdir(this.#results, { recursive: true, mode: 0o700 });
  }

  writeDiff(id: string, diff: string) {
    return atomicWrite(this.#file(this.#diffs, id, '.diff'), diff);
  }
  readDiff(id: string) {
    return readFile(this.#file(this.#diffs, id, '.diff'), 'utf8');
  }
  diffFile(id: string) {
    return this.#file(this.#diffs, id, '.diff');
  }
  deleteDiff(id: string) {
    return rm(this.#file(this.#diffs, id, '.diff'), { force: true });
  }
  writeFindings(id: string, findings: StoredFinding[]) {
    return atomicWrite(this.#file(this.#results, id, '.json'), JSON.stringify(findings));
  }
  async readFindings(id: string): Promise<StoredFinding[]> {
    return JSON.parse(await readFile(this.#file(this.#results, id, '.json'), 'utf8')) as StoredFinding[];
  }
  deleteFindings(id: string) {
    return rm(this.#file(this.#results, id, '.json'), { force: true });
  }
  async deleteAll(id: string) {
    await Promise.all([this.deleteDiff(id), this.deleteFindings(id)]);
  }

  #file(dir: string, id: string, ext: string) {
    // ids come from our own store, but a path is never built from anything unchecked
    if (!REVIEW_ID.test(id)) throw new Error(`not a review id: ${JSON.stringify(id)}`);
    return path.join(dir, id + ext);
  }
}

/**
 * Temp file + rename: a crash leaves either the old file or the new one, never half of one (and
 * perhaps the temp file, which the next start sweeps). A writer that never writes one file twice
 * at once may name its temp file; by default each write has its own.
 */
export async function atomicWrite(
  file: string,
  data: string | Uint8Array,
  mode = 0o600,
  temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`,
): Promise<void> {
  try {
    await writeFile(temp, data, { encoding: 'utf8', mode });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
}
