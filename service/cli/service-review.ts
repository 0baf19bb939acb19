// `--service URL`: the review done by a running service through its API (token in
// DIFF_REVIEW_TOKEN), with the same findings as in-process: the rule ids, columns and fingerprints
// come from the review's SARIF, and the project's rule settings are applied to them afterwards
// (apply-config.ts), since a create request carries no configuration.
import { reasonOf } from '../api/sarif-suppression.ts';
import { basename } from 'node:path';
import { LIMITS } from '../api/limits.ts';
import type { Severity } from '../api/schemas.ts';
import { ApiError, createClient, DiffReviewError, type SarifLog } from '../client/index.ts';
import { indexUnifiedDiff } from '../engine/diff/parse.ts';
import type { Finding, ReviewResult } from '../engine/index.ts';
import { VERSION } from '../version.ts';
import type { ReviewedDiff } from './diff-source.ts';
import { ReviewFailedError, UsageError } from './exit-codes.ts';
import type { DiffReview } from './offline-review.ts';

/** Longest wait for the service to finish one review. */
const WAIT_MS = 10 * 60_000;

export function serviceReviewer(url: string, source: ReviewedDiff): DiffReview {
  const token = process.env['DIFF_REVIEW_TOKEN'];
  if (!token)
    throw new UsageError(
      '--service needs a review API token in DIFF_REVIEW_TOKEN (make one with `diff-review token create`).',
    );
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new UsageError(`--service ${url}: not an http:// or https:// address.`);
  const client = createClient({ baseUrl: url, token, userAgent: `diff-review-cli/${VERSION}` });

  return async (diff, label) => {
    if (Buffer.byteLength(diff) > LIMITS.diffBytes)
      throw new ReviewFailedError(
        `${label} is ${Buffer.byteLength(diff)} bytes; the service takes at most ${LIMITS.diffBytes}. Review it in-process (without --service).`,
      );
    try {
      const created = await client.createReview({
        diff,
        repository: repositoryOf(source),
        ...(source.baseCommit !== undefined && /^[0-9a-f]{7,64}$/.test(source.baseCommit)
          ? { base_commit: source.baseCommit }
          : {}),
      });
      const job = await client.waitForReview(created.review_id, { timeoutMs: WAIT_MS });
      if (job.status === 'failed') {
        const { code, message } = job.error ?? { code: 'internal_error', message: 'no reason given' };
        if (code === 'invalid_diff') throw new UsageError(`${label} is not a unified diff: ${message}`);
        throw new ReviewFailedError(`the service at ${client.baseUrl} failed the review (${code}): ${message}`);
      }
      // the SARIF lists the findings, then what inline comments suppressed (results with suppressions)
      const results = resultsOf(await client.getSarif(created.review_id));
      return {
        findings: results.filter((result) => !result.suppressions?.length).map(findingOf),
        suppressed: results.flatMap((result) => {
          const suppression = result.suppressions?.[0];
          if (!suppression) return [];
          const by = suppression.properties?.suppressedBy ?? 'a comment';
          const reason = reasonOf(by, suppression.justification);
          return [{ ...findingOf(result), suppressed: reason === undefined ? { by } : { by, reason } }];
        }),
        stats: statsOf(diff),
      };
    } catch (error) {
      if (!(error instanceof DiffReviewError)) throw error;
      const status = error instanceof ApiError ? ` (${error.status} ${error.error})` : '';
      throw new ReviewFailedError(
        `the service at ${client.baseUrl} could not review ${label}${status}: ${error.message}`,
      );
    }
  };
}

/** The API's `repository`: the git identifier, else the folder's name. */
function repositoryOf(source: ReviewedDiff): string {
  const name = source.repository ?? (basename(process.cwd()) || 'diff');
  return name.replace(/\p{Cc}/gu, '').slice(0, LIMITS.repositoryChars) || 'diff';
}

const SEVERITY_OF_LEVEL: Record<string, Severity> = { error: 'error', warning: 'warning', note: 'info' };

interface SarifResult {
  ruleId: string;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: {
      artifactLocation: { uri: string };
      region: { startLine: number; startColumn?: number; endColumn?: number };
    };
  }[];
  partialFingerprints: Record<string, string>;
  suppressions?: { justification?: string; properties?: { suppressedBy?: string } }[];
}

/** The results of the service's SARIF log (the service's own engine wrote it). */
function resultsOf(log: SarifLog): SarifResult[] {
  return ((log.runs[0] as { results?: SarifResult[] } | undefined)?.results ?? []) as SarifResult[];
}

/** The engine's finding back from a result. */
function findingOf(result: SarifResult): Finding {
  const { artifactLocation, region } = result.locations[0]!.physicalLocation;
  const finding: Finding = {
    rule_id: result.ruleId,
    severity: SEVERITY_OF_LEVEL[result.level] ?? 'warning',
    file_path: artifactLocation.uri.split('/').map(decodeURIComponent).join('/'),
    line: region.startLine,
    message: result.message.text,
    fingerprint: result.partialFingerprints['diffReview/v1'] ?? '',
  };
  if (region.startColumn !== undefined) finding.start_column = region.startColumn;
  if (region.endColumn !== undefined) finding.end_column = region.endColumn;
  return finding;
}

/** What the engine counts (files, added lines), counted here since the API does not return it. */
function statsOf(diff: string): ReviewResult['stats'] {
  const index = indexUnifiedDiff(diff);
  return { files: index.files.length, addedLines: index.files.reduce((sum, file) => sum + file.addedLines, 0) };
}
