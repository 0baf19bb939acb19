// A rule's sinks in one parsed hunk: the calls it names, judged by what their argument is built
// from (string-parts.ts). Each hit says where it could be reported, best first: the sink's row,
// then the rows where its value was built (the stage keeps the first the diff added).
import type { Node } from '@vscode/tree-sitter-wasm';
import type { SinkDanger, SyntaxSink } from '../rules/rule.ts';
import type { LanguageProfile } from './languages.ts';
import type { Bindings } from './string-parts.ts';
import { madeByDownload, madeByWeakHash } from './origins.ts';
import { argumentsOf, calleeName, calleeText, partsOf } from './string-parts.ts';

/** 0-based row and column of the parsed text. */
interface Position {
  row: number;
  column: number;
}

export interface SyntaxHit {
  /** Rows where the finding may be placed, best first. */
  rows: number[];
  /** Where the finding is (its start column on its first row); a tree-sitter node, or a place in YAML. */
  node: { startPosition: Position; endPosition: Position };
  message?: string;
}

/** Whether a callee (as calleeName gives it) is one of the sink's `calls` (see SyntaxSink). */
function calleeMatches(written: string, calls: readonly string[]): boolean {
  const name = written.slice(written.lastIndexOf('.') + 1);
  for (const call of calls) {
    if (call.startsWith('.')) {
      if (name === call.slice(1)) return true;
    } else if (written === call || written.endsWith(`.${call}`)) {
      if (call.includes('.') || call.startsWith('new ') || written === call) return true;
    }
  }
  return false;
}

/** The statement opening words of SQL, at the start of a query's text. */
const SQL_START =
  /^\s*\(?\s*(?:SELECT|INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|REPLACE\s+INTO|UPSERT|WITH\s+\w+\s+AS|CREATE|DROP|ALTER|TRUNCATE|GRANT|EXEC(?:UTE)?|CALL)\b/i;
/** SQL inside a longer text; bounded, so that it stays linear. */
const SQL_INSIDE = /\b(?:SELECT\b[^;]{0,200}?\bFROM|INSERT\s+INTO|UPDATE\s+[\w."`[\]]+\s+SET|DELETE\s+FROM)\b/i;

export function looksLikeSql(text: string): boolean {
  return SQL_START.test(text) || SQL_INSIDE.test(text);
}

const ARRAYS = new Set(['array', 'list', 'array_creation_expression']);

/** Values that cannot carry SQL: numbers made by a conversion, placeholders joined for an IN list. */
const NUMERIC_CALL =
  /^(?:int|float|len|Number|parseInt|parseFloat|Integer\.parseInt|Integer\.valueOf|Long\.parseLong|strconv\.Itoa|strconv\.FormatInt|intval|count|sizeof)$/;
const PLACEHOLDER_JOIN =
  /\bjoin\b.*["'`](?:\s*(?:\?|%s|:\w+|\$\d+)\s*,?\s*)+["'`]|["'`](?:\s*,?\s*(?:\?|%s)\s*,?\s*)+["'`].*\bjoin\b/;

/** Calls whose result is safe to insert: a sanitizer's or an escaper's. */
const SANITIZER =
  /(?:^|\.)(?:sanitize\w*|purify|escape\w*|quote|shellescape|escapeshellarg|escapeshellcmd|xss|filterXSS|shlex\.quote|shlex\.join)$/i;

/**
 * The program's own data: a file at a path written in the code (its data file, not an upload), or
 * what it serialized a moment ago (Marshal.load(Marshal.dump(x)), Ruby's deep copy; data = CSV.dump(o) … CSV.load(data)).
 */
const OWN_FILE = /^(?:open|io\.open|File\.(?:read|binread|open)|fs\.readFileSync)\s*\(\s*(["'])[^"'`$#%{}+]*\1\s*[,)]/;
const JUST_SERIALIZED = /^(?:(?:Marshal|CSV|Oj)\.dump|(?:c?[Pp]ickle|dill|cloudpickle)\.dumps)$/;

function harmless(value: Node): boolean {
  const text = value.text;
  if (/\.to_[if]$/.test(text)) return true;
  if (value.type.includes('call') || value.type === 'invocation_expression' || value.type === 'method_invocation') {
    const callee = calleeText(value);
    if (NUMERIC_CALL.test(callee) || SANITIZER.test(callee) || JUST_SERIALIZED.test(callee)) return true;
    if (OWN_FILE.test(text)) return true;
  }
  return PLACEHOLDER_JOIN.test(text) && text.length < 200;
}

/** The name is checked against a fixed list before the sink: `if col in ALLOWED`, `allowed.includes(col)`. */
function allowListed(value: Node, sink: Node, scope: Node | null, root: Node): boolean {
  if (!/^[$\w]+$/.test(value.text)) return false;
  const from = (scope ?? root).startIndex;
  const before = (scope ?? root).text.slice(0, sink.startIndex - from);
  const name = value.text.replace(/\$/g, '\\$');
  return new RegExp(
    `\\b${name}\\s+(?:not\\s+)?in\\s+[\\w[({]|(?:includes|contains|has|indexOf|include\\?|in_array|containsKey)\\(\\s*${name}\\b|\\.include\\?\\(?\\s*${name}\\b`,
  ).test(before);
}

export function dangerous(
  danger: SinkDanger,
  arg: Node | undefined,
  sink: Node,
  profile: LanguageProfile,
  bindings: Bindings,
  root: Node,
): number[] | null {
  if (danger === 'any') return [];
  if (!arg) return null;
  // SQL given with its values, ["name = ?", name]: the text is the first element
  if (danger !== 'not-constant' && ARRAYS.has(arg.type)) {
    const first = arg.namedChildren.find((child) => child !== null && child.type !== 'comment');
    if (!first) return null;
    arg = first;
  }
  if (danger === 'weak-hash') return madeByWeakHash(arg, profile, bindings) ? [] : null;
  if (danger === 'download') return madeByDownload(arg, profile, bindings) ? [] : null;
  const parts = partsOf(arg, profile, bindings);
  if (danger === 'not-constant') return parts.values.some((value) => !harmless(value)) ? parts.builtAt : null;
  if (danger === 'sql' ? !looksLikeSql(parts.literal) : parts.literal.trim() === '') return null;
  const scope = bindings.scopeOf(sink);
  const values = parts.values.filter((value) => !harmless(value) && !allowListed(value, sink, scope, root));
  return values.length > 0 ? parts.builtAt : null;
}

/** The sinks of `sinks` among the calls of the hunk. */
export function sinkHits(
  calls: readonly Node[],
  sinks: readonly SyntaxSink[],
  profile: LanguageProfile,
  bindings: Bindings,
  root: Node,
): SyntaxHit[] {
  const hits: SyntaxHit[] = [];
  for (const call of calls) {
    const callee = calleeName(call);
    for (const sink of sinks) {
      if (!calleeMatches(callee, sink.calls)) continue;
      if ((sink.when && !sink.when.test(call.text)) || sink.unless?.test(call.text)) continue;
      const args = argumentsOf(call, profile);
      const judged = sink.argument === 'any' ? args : [args[sink.argument ?? 0]];
      let builtAt: number[] | null = null;
      for (const arg of judged) builtAt ??= dangerous(sink.danger, arg, call, profile, bindings, root);
      if (builtAt === null) continue;
      hits.push({ rows: [call.startPosition.row, ...builtAt], node: call, message: sink.message });
      break;
    }
  }
  return hits;
}
