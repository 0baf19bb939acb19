// The flagged lines' texts the store keeps (store/flagged-lines.ts), as SARIF's own field for
// them: each result's region.snippet.text. The engine's SARIF lists one result per finding, in the
// findings' order, so the n-th result is the n-th finding's.
import type { StoredFinding } from '../store/flagged-lines.ts';

interface SarifRegion {
  snippet?: { text: string };
}
interface SarifResult {
  locations?: { physicalLocation?: { region?: SarifRegion } }[];
}
interface SarifLog {
  runs?: { results?: SarifResult[] }[];
}

const isSarifLog = (value: object): value is SarifLog => Array.isArray((value as SarifLog).runs);

/** `sarif` with the snippets of `findings` (those whose text is kept) added to its results, in place. */
export function addSnippets<T extends object>(sarif: T, findings: readonly StoredFinding[]): T {
  if (!isSarifLog(sarif)) return sarif;
  const results = sarif.runs?.[0]?.results ?? [];
  for (const [i, finding] of findings.entries()) {
    const region = results[i]?.locations?.[0]?.physicalLocation?.region;
    if (region && finding.line_text !== undefined) region.snippet = { text: finding.line_text };
  }
  return sarif;
}
