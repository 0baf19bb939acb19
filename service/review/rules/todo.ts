// TODO / FIXME notes added without an issue to track them.
import { anyFile } from './files.ts';
import { patternRule } from './rule.ts';

/** #123, GH-123, ABC-123, owner/repo#123, or a link. */
const ISSUE_REFERENCE = /(?:^|[^\w&])#\d+\b|\b[A-Z][A-Z0-9]+-\d+\b|[\w.-]+\/[\w.-]+#\d+\b|https?:\/\//;

export const todoWithoutIssue = patternRule({
  id: 'todo-without-issue',
  severity: 'info',
  summary: 'A TODO / FIXME / XXX / HACK note without an issue reference.',
  help: 'Open an issue and reference it in the note (TODO(#123): ..., FIXME ABC-42: ...), so that the work is tracked and not forgotten.',
  message: 'Reference an issue in this note (e.g. "TODO(#123): ..."), so that the work is tracked and not forgotten.',
  files: anyFile,
  keywords: ['TODO', 'FIXME', 'XXX', 'HACK'],
  in: 'comment',
  pattern: /\b(?:TODO|FIXME|XXX|HACK)\b/,
  unless: ISSUE_REFERENCE,
});

export const todoRules = [todoWithoutIssue];
