// Where a commented line is after an edit. Plain data in and out (no vscode import): the
// diagnostics module feeds it the editor's content changes.

/** One replacement, in the coordinates of the text it applies to (like vscode's TextDocumentContentChangeEvent). */
export interface TextChange {
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number;
  /** The inserted text. */
  text: string;
}

/** The line still holds its text, now at `line`; or the edit touched the line's own text. */
export type LineFate = { kind: 'moved'; line: number } | { kind: 'edited'; line: number };

const newlines = (text: string): number => {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
};

/**
 * The fate of the 0-based line `line`, whose text is `lineLength` characters long, after one change.
 * Lines inserted or deleted above move it; a change inside it marks it edited. Edits that only touch
 * its edges without changing its text count as moves: a new line typed at its end ("\n…" after the
 * last character), or whole lines inserted or deleted right before it (ending at its column 0).
 */
export function lineAfterChange(line: number, lineLength: number, change: TextChange): LineFate {
  const delta = newlines(change.text) - (change.endLine - change.startLine);
  if (change.startLine > line) return { kind: 'moved', line };
  if (change.endLine < line) return { kind: 'moved', line: line + delta };

  // The change reaches into this line. Is its text left whole?
  const endsAtLineStart = change.endLine === line && change.endCharacter === 0;
  if (endsAtLineStart && change.startLine < line) {
    // Lines above (and their line breaks) replaced: the line survives if the new text ends a line, or is empty after a column 0.
    if (change.text.endsWith('\n') || (change.text === '' && change.startCharacter === 0))
      return { kind: 'moved', line: line + delta };
    return { kind: 'edited', line: change.startLine };
  }
  if (change.startLine === line) {
    // Text after the end of the line that begins with a line break: lines opened or replaced below.
    if (change.startCharacter >= lineLength && /^\r?\n/.test(change.text)) return { kind: 'moved', line };
    const empty = change.endLine === line && change.startCharacter === change.endCharacter;
    if (empty && change.startCharacter === 0 && change.text.endsWith('\n'))
      return { kind: 'moved', line: line + delta }; // lines inserted above
    if (empty && change.text === '') return { kind: 'moved', line };
  }
  return { kind: 'edited', line: change.startLine };
}

/**
 * The fate of a line after several changes applied one after the other (the order of vscode's
 * contentChanges). Once edited, it stays edited; `lineLength` is only needed while it is whole.
 */
export function lineAfterChanges(line: number, lineLength: number, changes: readonly TextChange[]): LineFate {
  let fate: LineFate = { kind: 'moved', line };
  for (const change of changes) {
    const next = lineAfterChange(fate.line, lineLength, change);
    fate = fate.kind === 'edited' ? { kind: 'edited', line: next.line } : next;
  }
  return fate;
}

/**
 * Finds the line whose text is `expected`, nearest to `guess` (at most `maxDistance` lines away),
 * for when a file's text changed while nobody watched it (a closed file, an edit discarded).
 */
export function reanchor(
  lines: readonly string[],
  expected: string,
  guess: number,
  maxDistance = 500,
): number | undefined {
  if (lines[guess] === expected) return guess;
  for (let distance = 1; distance <= maxDistance; distance++) {
    const below = guess + distance;
    const above = guess - distance;
    if (above < 0 && below >= lines.length) return undefined;
    if (lines[above] === expected) return above;
    if (lines[below] === expected) return below;
  }
  return undefined;
}
