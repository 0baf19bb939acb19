// Where code on a line is an example, not code that runs: inside a block comment (a JSDoc
// @example written without leading `*`) or a fenced code block (``` in a comment or in a string
// of documentation). Read from the lines the diff shows around the line, at most REACH each way:
// a line whose hunk starts inside a comment is recognised by the first delimiter below it being
// a closer (`*/` before any `/*`). Asked only about lines a rule has matched.
import type { AddedLine } from './rule.ts';

/** How many lines up and down are read. */
const REACH = 60;

const FENCE = /^\s*\*?\s*```/;

/** The line lies in a block comment or a fenced code block, as far as the diff shows. */
export function inDocExample(line: AddedLine): boolean {
  let fences = 0;
  for (let offset = -1; offset >= -REACH; offset--) {
    const above = line.lineAt(offset);
    if (above === undefined) break;
    if (above.kind === '-') continue;
    const { text } = above;
    if (FENCE.test(text)) fences++;
    const open = text.lastIndexOf('/*');
    const close = text.lastIndexOf('*/');
    // The nearest delimiter above decides: an opener not closed on its line means inside.
    if (open > close) return true;
    if (close >= 0) return fences % 2 === 1;
  }
  if (fences % 2 === 1) return true;
  // No delimiter above within reach: the first one below says whether the line is in a comment.
  for (let offset = 1; offset <= REACH; offset++) {
    const below = line.lineAt(offset);
    if (below === undefined) break;
    if (below.kind === '-') continue;
    const open = below.text.indexOf('/*');
    const close = below.text.indexOf('*/');
    if (close >= 0 && (open < 0 || close < open)) return true;
    if (open >= 0) return false;
  }
  return false;
}
