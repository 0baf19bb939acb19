// The flagged lines' code the service gives in a review's SARIF (each result's region.snippet),
// keyed `file:line` as the renderer looks comments up. Anything unexpected in the log is skipped.

interface SarifResult {
  locations?: {
    physicalLocation?: {
      artifactLocation?: { uri?: unknown };
      region?: { startLine?: unknown; snippet?: { text?: unknown } };
    };
  }[];
}

/** `file:line` → the line's code, for every result of the log that carries one. */
export function snippetsFromSarif(sarif: unknown): Map<string, string> {
  const snippets = new Map<string, string>();
  const runs = typeof sarif === 'object' && sarif !== null && 'runs' in sarif ? sarif.runs : undefined;
  for (const run of Array.isArray(runs) ? runs : []) {
    const results: unknown = typeof run === 'object' && run !== null && 'results' in run ? run.results : undefined;
    for (const result of (Array.isArray(results) ? results : []) as SarifResult[]) {
      const location = result.locations?.[0]?.physicalLocation;
      const uri = location?.artifactLocation?.uri;
      const line = location?.region?.startLine;
      const text = location?.region?.snippet?.text;
      if (typeof uri !== 'string' || typeof line !== 'number' || typeof text !== 'string') continue;
      const file = decodePath(uri);
      if (file !== undefined) snippets.set(`${file}:${line}`, text);
    }
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
