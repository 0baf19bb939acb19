// Where code on a line is an example, not code that runs: inside a block comment (a JSDoc
// @example written without leading `*`) or a fenced code block (``` in a comment or in a string
// of documentation). Worked out once per hunk from the lines the diff shows; a hunk that starts
// inside a comment is recognised by its first delimiter being a closer (`*/` before any `/*`).
import type { AddedLine } from './rule.ts';

const KEY = Symbol('doc-examples');

/** The line lies in a block comment or a fenced code block, as far as its hunk shows. */
export function inDocExample(line: AddedLine): boolean {
  let inside = line.hunkMemo.get(KEY) as Uint8Array | undefined;
  if (!inside) line.hunkMemo.set(KEY, (inside = examplesOfHunk(line)));
  return inside[line.indexInHunk] === 1;
}

function examplesOfHunk(line: AddedLine): Uint8Array {
  const texts: (string | undefined)[] = [];
  for (let offset = -line.indexInHunk; ; offset++) {
    const other = line.lineAt(offset);
    if (other === undefined) break;
    texts.push(other.kind === '-' ? undefined : other.text);
  }
  let inBlock = false;
  for (const text of texts) {
    if (text === undefined) continue;
    const open = text.indexOf('/*');
    const close = text.indexOf('*/');
    if (close >= 0 && (open < 0 || close < open)) inBlock = true;
    if (open >= 0 || close >= 0) break;
  }
  let inFence = false;
  const inside = new Uint8Array(texts.length);
  texts.forEach((text, i) => {
    if (text === undefined) return;
    const fence = /^\s*\*?\s*```/.test(text);
    inside[i] = inBlock || inFence || fence ? 1 : 0;
    if (fence) inFence = !inFence;
    const open = text.lastIndexOf('/*');
    const close = text.lastIndexOf('*/');
    if (open > close) inBlock = true;
    else if (close > open) inBlock = false;
  });
  return inside;
}
