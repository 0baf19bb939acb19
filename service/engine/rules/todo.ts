// TODO / FIXME notes added without an issue to track them.
import { anyFile, notFixture } from './files.ts';
import type { LineRule } from './rule.ts';

/**
 * #123, GH-123, ABC-123, owner/repo#123, or a link. Linear in the line's length: owner/repo is
 * tried only where a run of [\w.-] starts (unanchored, it was retried at every character of a
 * long run: quadratic).
 */
const ISSUE_REFERENCE = /(?:^|[^\w&])#\d+\b|\b[A-Z][A-Z0-9]+-\d+\b|(?<![\w.-])[\w.-]+\/[\w.-]+#\d+\b|https?:\/\//;

/**
 * A note is a marker that opens its comment ("// TODO: x", "# FIXME x", " * TODO(sam) x"); a
 * marker inside a sentence ("(TODO, eslint-disable) are read", "TODO / FIXME notes") is the
 * word, not a note.
 */
const NOTE = /^(?:\/\/+|\/\*+|\*+|#+|<!--|--|;+)?[ \t]*(TODO|FIXME|XXX|HACK)(?=$|[:(!]|[ \t]+[\w#@])/;

export const todoWithoutIssue: LineRule = {
  kind: 'line',
  id: 'todo-without-issue',
  severity: 'info',
  summary: 'A TODO / FIXME / XXX / HACK note without an issue reference.',
  help: 'Open an issue and reference it in the note (TODO(#123): ..., FIXME ABC-42: ...), so that the work is tracked and not forgotten.',
  message: 'Reference an issue in this note (e.g. "TODO(#123): ..."), so that the work is tracked and not forgotten.',
  files: notFixture(anyFile),
  keywords: ['TODO', 'FIXME', 'XXX', 'HACK'],
  reads: 'comment',
  check(line) {
    const start = line.comment.search(/\S/);
    if (start < 0) return null;
    const m = NOTE.exec(line.comment.slice(start));
    if (!m || ISSUE_REFERENCE.test(line.text)) return null;
    const column = start + m[0].length - m[1]!.length + 1;
    return { column, endColumn: column + m[1]!.length };
  },
};

export const todoRules = [todoWithoutIssue];
