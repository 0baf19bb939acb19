// Test annotations in semgrep's convention (semgrep-rules and njsscan use it): a comment
// `ruleid: ID` says the next line must be reported by rule ID, `ok: ID` that it must not;
// `todoruleid` / `todook` are the authors' own known misses and false reports, so they say the same.
// A comment after code on the same line labels that line.
import type { MaterialFile, Span } from './material.ts';

export interface Annotation {
  kind: 'flag' | 'clean';
  ids: string[];
  /** The labelled line (1-based). */
  target: number;
}

const ANNOTATION =
  /(?:#|\/\/|<!--|\/\*|--|;|\{#|%|')\s*(todoruleid|ruleid|todook|ok)\s*:\s*([\w.-]+(?:\s*,\s*[\w.-]+)*)/;

interface ParsedLine {
  annotation: { kind: 'flag' | 'clean'; ids: string[] } | null;
  /** Only the comment: it labels a later line. */
  alone: boolean;
}

function parseLine(line: string): ParsedLine {
  const m = ANNOTATION.exec(line);
  if (!m) return { annotation: null, alone: false };
  const kind = m[1] === 'ruleid' || m[1] === 'todoruleid' ? 'flag' : 'clean';
  const ids = m[2]!.split(',').map((id) => id.trim());
  return { annotation: { kind, ids }, alone: line.slice(0, m.index).trim() === '' };
}

/** The annotations of a file, each with the line it labels, and the lines that hold only an annotation. */
export function annotationsOf(lines: readonly string[]): { annotations: Annotation[]; commentLines: Set<number> } {
  const parsed = lines.map(parseLine);
  const commentLines = new Set<number>();
  parsed.forEach((p, i) => {
    if (p.annotation && p.alone) commentLines.add(i + 1);
  });
  const annotations: Annotation[] = [];
  parsed.forEach((p, i) => {
    if (!p.annotation) return;
    let target = i + 1;
    if (p.alone) {
      target++;
      // Stacked annotations (`# ruleid: a` then `# ok: b`) label the same code line.
      while (commentLines.has(target)) target++;
    }
    if (target <= lines.length) annotations.push({ ...p.annotation, target });
  });
  return { annotations, commentLines };
}

/**
 * The lines a label covers: the labelled line and up to `window` lines after it, the whole
 * statement it opens (brackets and braces left open on it, up to STATEMENT_REACH lines: the peers'
 * tools report a match at its first line, this engine at the line inside it that does the harm),
 * a YAML block scalar (`run: |`), a key's block below it (`spec:`) or a list item (a step) to its end, never past the next annotation; and when the label sits inside a statement (an argument on its own line, a
 * `.method()` of a chain), back to that statement's first line.
 */
export function statementSpan(file: MaterialFile, target: number, window: number, commentLines: Set<number>): Span {
  const lines = file.lines;
  let to = Math.min(lines.length, target + window);
  // a YAML block scalar (`run: |`), a key whose value is the block below it (`spec:`) or a list item
  // (a step: `- name: …`), to its end
  const yamlBlock = /:\s*(?:[|>][-+0-9]*)?\s*(?:#.*)?$|^\s*-\s/;
  if (/\.ya?ml$/.test(file.diffPath) && yamlBlock.test(lines[target - 1]!)) {
    const indent = indentOf(lines[target - 1]!);
    let end = target;
    while (end < lines.length && (lines[end]!.trim() === '' || indentOf(lines[end]!) > indent)) end++;
    to = Math.max(to, end);
  }
  to = Math.max(to, statementEnd(lines, target));
  const from = statementStart(lines, target, commentLines);
  for (let line = target + 1; line <= to; line++) {
    if (commentLines.has(line)) return { file, from, to: line - 1 };
  }
  return { file, from, to };
}

/** How many lines a statement opened on a labelled line may run to. */
const STATEMENT_REACH = 30;

/**
 * The last line of the statement that opens on `target` (its brackets and braces closed again), or
 * `target` when it closes there or not within reach. A Java annotation line (`@Override`) opens
 * the declaration below it.
 */
function statementEnd(lines: readonly string[], target: number): number {
  let depth = 0;
  let opened = false;
  for (let line = target; line <= Math.min(lines.length, target + STATEMENT_REACH); line++) {
    const text = lines[line - 1]!;
    if (line === target && /^\s*@\w+\s*$/.test(text)) continue;
    depth += bracketBalance(text, true);
    opened ||= depth > 0;
    if (depth <= 0) return opened ? line : target;
  }
  return target;
}

/** How many lines above a label are read for the statement it sits in. */
const LOOK_BACK = 6;

/** The first line of the statement the labelled line belongs to: where an unclosed bracket or a chain begins. */
function statementStart(lines: readonly string[], target: number, commentLines: Set<number>): number {
  let start = target;
  let depth = 0;
  for (let line = target - 1; line >= Math.max(1, target - LOOK_BACK); line--) {
    if (commentLines.has(line)) continue;
    const text = lines[line - 1]!;
    depth += bracketBalance(text);
    if (depth > 0 || /^\s*\./.test(lines[start - 1]!)) start = line;
    else break;
    if (depth > 0) return line;
  }
  return start;
}

/**
 * Opening minus closing parentheses and square brackets of a line, outside its string literals;
 * with `braces`, curly ones too (a statement's object literal; looking back, braces open blocks).
 */
function bracketBalance(text: string, braces = false): number {
  const code = text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '');
  const opening = braces ? /[([{]/g : /[([]/g;
  const closing = braces ? /[)\]}]/g : /[)\]]/g;
  return (code.match(opening)?.length ?? 0) - (code.match(closing)?.length ?? 0);
}

const indentOf = (line: string): number => line.length - line.trimStart().length;
