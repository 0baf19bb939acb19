// The bulky parts of a review, kept apart from its record: the diff while the job waits, the
// findings once it is done.
import type { Finding } from '../engine/types.ts';
import type { StoredFinding } from './flagged-lines.ts';

export interface ReviewFileStore {
  writeDiff(id: string, diff: string): Promise<void>;
  readDiff(id: string): Promise<string>;
  /** Where the diff is on disk, for a store that keeps it in a file (the worker reads it there). */
  diffFile?(id: string): string;
  deleteDiff(id: string): Promise<void>;
  /**
   * Keeps the findings, each with its line's text from the review's diff while the diff is still
   * stored (flagged-lines.ts: never a line that holds a secret).
   */
  writeFindings(id: string, findings: Finding[]): Promise<void>;
  readFindings(id: string): Promise<StoredFinding[]>;
}
