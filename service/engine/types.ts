// The engine's contract with the job runner. The engine knows nothing of HTTP or storage:
// a diff goes in, findings come out (or an InvalidDiffError is thrown).
import type { Severity } from '../api/schemas.ts';

/** One finding of one rule on one added line. The API's ReviewComment is its first four fields. */
export interface Finding {
  rule_id: string;
  severity: Severity;
  /** New path, without a/ or b/. */
  file_path: string;
  /** 1-based line in the new version of the file; always an added line. */
  line: number;
  /** Begins with `${rule_id}: `. */
  message: string;
  /** 1-based columns of the offending text on that line, where the rule knows them (SARIF region). */
  start_column?: number;
  end_column?: number;
  /** Stable across unrelated edits (does not contain the line number): SARIF partialFingerprints. */
  fingerprint: string;
}

/** Service configuration of the rules: turn a rule off or change its severity. */
export interface EngineConfig {
  rules?: Record<string, 'off' | Severity>;
  /** Cap on findings per review; one extra `info` finding says how many were cut. Default 500. */
  maxFindings?: number;
  /** How inline suppressions are judged (the project config's `suppressions`). */
  suppressions?: {
    /** A `diff-review-ignore` without a reason is a finding of its own (suppression-without-reason). Default false. */
    requireReason?: boolean;
    /** Honour gitleaks:allow, trufflehog:ignore, nosemgrep, nosec and NOSONAR. Default true. */
    otherTools?: boolean;
  };
  /** The day a suppression's `until` is compared with (YYYY-MM-DD); default today (UTC). For tests. */
  today?: string;
}

/** A finding an inline comment suppressed: kept for SARIF, JSON and counts, never for the API's comments or an exit code. */
export interface SuppressedFinding extends Finding {
  suppressed: { by: string; reason?: string };
}

export interface ReviewResult {
  findings: Finding[];
  /** Findings an inline comment suppressed (gitleaks:allow, diff-review-ignore, …), in the same order. */
  suppressed: SuppressedFinding[];
  /** Counts for logs and metrics; never the diff's text. */
  stats: {
    files: number;
    addedLines: number /** Time in tree-sitter's parser, when the structural stage parsed anything. */;
    parseMs?: number;
  };
  /** Files whose syntax the structural stage could not read (their security rules did not run there), and why. */
  notAnalysed?: { path: string; reason: string }[];
}

/** The text is not a unified diff, or cannot be parsed. Ends the job with code `invalid_diff`. */
export class InvalidDiffError extends Error {
  readonly code = 'invalid_diff';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidDiffError';
  }
}

/** Thrown when a review is asked to stop (its job was cancelled, timed out or handed back). */
export class ReviewStoppedError extends Error {
  constructor() {
    super('The review was stopped.');
    this.name = 'ReviewStoppedError';
  }
}

/** Metadata of a rule, for SARIF's tool.driver.rules and for docs. */
export interface RuleInfo {
  id: string;
  severity: Severity;
  /** One line: what the rule finds. */
  summary: string;
  /** What to do about it. */
  help: string;
}
