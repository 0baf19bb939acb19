// The plain diff model: what a unified diff says, file by file, hunk by hunk, line by line.
// parseUnifiedDiff returns it; the extension maps comments to lines with it.

export type FileStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';

export interface DiffLine {
  /** '+' added, '-' deleted, ' ' context. */
  kind: '+' | '-' | ' ';
  /** The line without its diff marker and without a trailing CR. */
  text: string;
  /** 1-based line in the new file for added and context lines; 0 for deleted lines. */
  newLine: number;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface FileDiff {
  /** Old path without a/ prefix; null when the file is new (/dev/null). */
  oldPath: string | null;
  /** New path without b/ prefix; null when the file was deleted (/dev/null). */
  newPath: string | null;
  status: FileStatus;
  binary: boolean;
  oldMode?: string;
  newMode?: string;
  /** Percent, from `similarity index` of renames and copies. */
  similarity?: number;
  hunks: Hunk[];
  /** Number of '+' lines over all hunks. */
  addedLines: number;
}

export interface ParsedDiff {
  files: FileDiff[];
}
