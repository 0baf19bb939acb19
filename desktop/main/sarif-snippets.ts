// The flagged lines' code the service gives in a review's SARIF (each result's region.snippet),
// keyed `file:line` as the renderer looks comments up, and what inline comments suppressed (results
// with suppressions). Anything unexpected in the log is skipped.
import { reasonOf } from '../../service/api/sarif-suppression.ts';
import type { SuppressedInReview } from '../shared/ipc-contract.ts';

interface SarifResult {
  ruleId?: unknown;
  suppressions?: { justification?: unknown; properties?: { suppressedBy?: unknown } }[];
  locations?: {
    physicalLocation?: {
      artifactLocation?: { uri?: unknown };
      region?: { startLine?: unknown; snippet?: { text?: unknown } };
    };
  }[];
}

/** Every result of the log's runs, as far as it is one. */
function resultsOf(sarif: unknown): SarifResult[] {
  const out: SarifResult[] = [];
  const runs = typeof sarif === 'object' && sarif !== null && 'runs' in sarif ? sarif.runs : undefined;
  for (const run of Array.isArray(runs) ? runs : []) {
    const results: unknown = typeof run === 'object' && run !== null && 'results' in run ? run.results : undefined;
    for (const result of Array.isArray(results) ? results : [])
      if (typeof result === 'object' && result !== null) out.push(result as SarifResult);
  }
  return out;
}

/** The results an inline comment suppressed: rule, place, the comment's marker and reason. */
export function suppressedFromSarif(sarif: unknown): SuppressedInReview[] {
  const out: SuppressedInReview[] = [];
  for (const result of resultsOf(sarif)) {
    const suppression = result.suppressions?.[0];
    const location = result.locations?.[0]?.physicalLocation;
    const uri = location?.artifactLocation?.uri;
    const line = location?.region?.startLine;
    if (!suppression || typeof result.ruleId !== 'string' || typeof uri !== 'string' || typeof line !== 'number')
      continue;
    const file = decodePath(uri);
    if (file === undefined) continue;
    const by =
      typeof suppression.properties?.suppressedBy === 'string' ? suppression.properties.suppressedBy : 'a comment';
    const justification = typeof suppression.justification === 'string' ? suppression.justification : undefined;
    const reason = reasonOf(by, justification) ?? null;
    out.push({ rule_id: result.ruleId, file_path: file, line, by, reason });
  }
  return out;
}

/** `file:line` → the line's code, for every result of the log that carries one. */
export function snippetsFromSarif(sarif: unknown): Map<string, string> {
  const snippets = new Map<string, string>();
  for (const result of resultsOf(sarif)) {
    const location = result.locations?.[0]?.physicalLocation;
    const uri = location?.artifactLocation?.uri;
    const line = location?.region?.startLine;
    const text = location?.region?.snippet?.text;
    if (typeof uri !== 'string' || typeof line !== 'number' || typeof text !== 'string') continue;
    const file = decodePath(uri);
    if (file !== undefined) snippets.set(`${file}:${line}`, text);
  }
  return snippets;
}

/** The service writes each path segment percent-encoded (engine/sarif.ts, pathToUri). */
function decodePath(uri: string): string | undefined {
  try {
    return uri.split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
}
