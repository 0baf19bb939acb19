// What a value is built from, read from the syntax tree: the literal text of its string parts and
// the parts that are not constant (a variable, a call, an interpolation). A name is followed to
// the values assigned to it earlier in the same function (or the same hunk, outside functions),
// a few steps deep: `q = "SELECT … " + x` … `execute(q)`. Only what the diff shows is read.
import type { Node, Query } from '@vscode/tree-sitter-wasm';
import type { LanguageProfile } from './languages.ts';
import { isCall } from './languages.ts';

export interface Parts {
  /** The literal text of the value's string parts, in order. */
  literal: string;
  /** The parts that are not constant. */
  values: Node[];
  /** Rows of the assignments the value was followed through (where it was built). */
  builtAt: number[];
  /** Nodes read so far: bounded (MAX_NODES), so that a value nested 20,000 deep costs little and no stack. */
  read: number;
}

interface Binding {
  value: Node;
  start: number;
  row: number;
  scope: Node | null;
}

/**
 * Names, values assigned to them, and the functions they live in, for one parsed hunk. The
 * assignments are searched for when a name is first followed (most hunks have no sink).
 */
export class Bindings {
  #byNameCache: Map<string, Binding[]> | undefined;
  readonly #root: Node;
  readonly #assignments: Query;
  readonly #profile: LanguageProfile;

  constructor(root: Node, assignments: Query, profile: LanguageProfile) {
    this.#root = root;
    this.#assignments = assignments;
    this.#profile = profile;
  }

  get #byName(): Map<string, Binding[]> {
    if (this.#byNameCache) return this.#byNameCache;
    const byName = (this.#byNameCache = new Map());
    const add = (name: string, value: Node, at: Node) => {
      const list = byName.get(name) ?? [];
      list.push({ value, start: at.startIndex, row: at.startPosition.row, scope: this.scopeOf(at) });
      byName.set(name, list);
    };
    for (const match of this.#assignments.matches(this.#root)) {
      const name = match.captures.find((c) => c.name === 'name')?.node;
      const value = match.captures.find((c) => c.name === 'value')?.node;
      if (!name || !value || value.startIndex === name.startIndex) continue;
      add(name.text, value, name);
    }
    // Text added to what a name holds: a builder's append (Java, C#, Go, Ruby's concat) or Ruby's <<
    for (const node of this.#root.descendantsOfType([...this.#appendTypes()])) {
      if (!node) continue;
      if (isCall(this.#profile, node.type)) {
        const appended = APPENDING_CALL.exec(calleeText(node));
        if (appended) for (const argument of argumentsOf(node, this.#profile)) add(appended[1]!, argument, node);
      } else {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left?.type === 'identifier' && right && node.childForFieldName('operator')?.text === '<<')
          add(left.text, right, node);
      }
    }
    return byName;
  }

  /** The node types of calls, and Ruby's binary operations (where `<<` appends). */
  #appendTypes(): Set<string> {
    const types = new Set([...this.#profile.calls.matchAll(/\((\w+) /g)].map((m) => m[1]!));
    if (this.#profile.grammar === 'ruby') types.add('binary');
    return types;
  }

  /** The innermost function around a node, or null (the hunk's top level). */
  scopeOf(node: Node): Node | null {
    for (let up = node.parent; up; up = up.parent) if (this.#profile.functions.includes(up.type)) return up;
    return null;
  }

  /** The values assigned, before it, to the name a node reads: in its function, else at the top level (a module's constant). */
  valuesAt(name: Node): Binding[] {
    const scope = this.scopeOf(name);
    const before = (this.#byName.get(name.text) ?? []).filter((b) => b.start < name.startIndex);
    const inScope = before.filter((b) => sameNode(b.scope, scope));
    return inScope.length > 0 || scope === null ? inScope : before.filter((b) => b.scope === null);
  }
}

function sameNode(a: Node | null, b: Node | null): boolean {
  return a === b || (a !== null && b !== null && a.id === b.id);
}

/** `sb.append(x)`, `sb.Append(x)`, `sb.AppendFormat(f, x)`, `b.WriteString(x)`, `query.concat(x)`: the name, with what it holds growing. */
const APPENDING_CALL = /^([$\w]+)\.(?:append|Append|AppendFormat|AppendLine|WriteString|concat)$/;

/** Nodes read for one value: beyond, the rest counts as not constant. Recursion is at most a few frames per node read. */
const MAX_NODES = 400;
/** How deep names are followed: q = a + b, a = "SELECT " + c … */
const MAX_DEPTH = 4;
/** Names written in capitals are constants by convention (TABLE, SQL_COLUMNS). */
const CONSTANT_NAME = /^\$?[A-Z][A-Z0-9_]*$/;
/** Calls that fill a format string with their other arguments (the format is the first, or the receiver). */
const FORMAT_FIRST = /(?:^|\.)(?:Sprintf|sprintf|format|Format|vsprintf)$/;
const FORMAT_RECEIVER = /\.(?:format|formatted|concat)$/;
/** Calls whose result is their arguments run together: String.Concat(a, b), string.Concat(new[] {…}). */
const CONCAT_ALL = /^(?:string|String|System\.String)\.Concat$/;
/**
 * Calls that wrap text without changing what it can hold: SQLAlchemy's text(), Arel.sql, Sequel.lit,
 * DB::raw, dedent; a string builder made from text, and the text a builder holds (toString(),
 * ToString(), Go's String()), whose appends the bindings follow.
 */
const WRAPPER =
  /(?:^|\.)(?:text|sql|lit|raw|RawSQL|dedent|strip|trim|trimStart|trimEnd|lstrip|rstrip|chomp|toString|ToString|String)$|^new (?:StringBuilder|StringBuffer)$/;
/** Collections: a value made of constants is constant (`"…" % ()`, a list of literal arguments). */
const COLLECTIONS = new Set([
  'tuple',
  'list',
  'array',
  'expression_list',
  'array_creation_expression',
  'array_initializer',
  'initializer_expression',
]);
const CONDITIONALS = new Set(['ternary_expression', 'conditional', 'conditional_expression']);
/** A format that fills in only numbers (%d): its values cannot carry text. */
const TEXT_VERB = /%[-+ #0-9.*]*[svqxXTrc]|\{/;
const CONSTANT_TYPES = new Set([
  'number',
  'integer',
  'float',
  'int_literal',
  'float_literal',
  'decimal_integer_literal',
  'integer_literal',
  'real_literal',
  'true',
  'false',
  'null',
  'none',
  'nil',
  'boolean',
  'boolean_literal',
  'null_literal',
  // the type of an array created with its elements: new String[] {…}
  'type_identifier',
  'dimensions',
  'predefined_type',
  'array_type',
]);

export function partsOf(node: Node, profile: LanguageProfile, bindings: Bindings, depth = 0): Parts {
  const parts: Parts = { literal: '', values: [], builtAt: [], read: 0 };
  collect(node, profile, bindings, depth, parts);
  return parts;
}

function collect(node: Node, profile: LanguageProfile, bindings: Bindings, depth: number, out: Parts): void {
  if (++out.read > MAX_NODES) {
    out.values.push(node);
    return;
  }
  const type = node.type;
  if (profile.strings.includes(type)) {
    collectString(node, profile, bindings, depth, out);
    return;
  }
  if (CONSTANT_TYPES.has(type)) return;
  if (type === 'parenthesized_expression' || type === profile.argument || COLLECTIONS.has(type)) {
    for (const child of node.namedChildren) if (child) collect(child, profile, bindings, depth, out);
    return;
  }
  // shell: "$x" and "${x}" are the variable x; a word run together of parts is its parts
  if (type === 'simple_expansion' || type === 'expansion' || type === 'concatenation') {
    for (const child of node.namedChildren) if (child) collect(child, profile, bindings, depth, out);
    return;
  }
  // Ruby's constants (TABLE), by the same convention as names in capitals
  if (type === 'constant' && CONSTANT_NAME.test(node.text)) return;
  // a ? b : c: what it can be is b or c
  if (CONDITIONALS.has(type)) {
    for (const field of ['consequence', 'alternative']) {
      const branch = node.childForFieldName(field);
      if (branch) collect(branch, profile, bindings, depth, out);
    }
    return;
  }
  // a hash's or an object's entry: its value (Ruby's conditions: "…", a keyword argument)
  if (type === 'pair') {
    const value = node.childForFieldName('value');
    if (value) collect(value, profile, bindings, depth, out);
    return;
  }
  const concat = profile.concat.find((c) => c.type === type);
  const operator = concat && node.childForFieldName('operator')?.type;
  if (concat && operator && concat.operators.includes(operator)) {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    const before = out.literal.length;
    if (left) collect(left, profile, bindings, depth, out);
    // "… %d" % n: a format that fills in numbers only
    if (operator === '%' && !TEXT_VERB.test(out.literal.slice(before))) return;
    if (right) collect(right, profile, bindings, depth, out);
    return;
  }
  if (isCall(profile, type) && collectFormat(node, profile, bindings, depth, out)) return;
  if (type === 'identifier' || type === 'variable_name') {
    if (CONSTANT_NAME.test(node.text)) return;
    const assigned = depth < MAX_DEPTH ? bindings.valuesAt(node) : [];
    if (assigned.length === 0) {
      out.values.push(node);
      return;
    }
    for (const binding of assigned) {
      const before = out.values.length;
      collect(binding.value, profile, bindings, depth + 1, out);
      if (out.values.length > before || out.literal.length > 0) out.builtAt.push(binding.row);
    }
    return;
  }
  out.values.push(node);
}

function collectString(node: Node, profile: LanguageProfile, bindings: Bindings, depth: number, out: Parts): void {
  if (++out.read > MAX_NODES) return;
  const children = node.namedChildren.filter((child) => child !== null);
  if (children.length === 0) {
    out.literal += node.text.replace(/^[@$a-zA-Z]*("""|'''|["'`])|("""|'''|["'`])$/g, '');
    return;
  }
  for (const child of children) {
    if (profile.stringText.includes(child.type)) out.literal += child.text;
    else if (profile.strings.includes(child.type)) collectString(child, profile, bindings, depth, out);
    else if (!profile.stringMarks.includes(child.type)) collectInterpolation(child, profile, bindings, depth, out);
  }
}

/** An interpolation's expression: constant if it is, followed if it is a name. */
function collectInterpolation(
  node: Node,
  profile: LanguageProfile,
  bindings: Bindings,
  depth: number,
  out: Parts,
): void {
  const inner = node.namedChildren.filter(
    (child) => child !== null && !['interpolation_brace', 'format_specifier', 'type_conversion'].includes(child.type),
  );
  if (inner.length === 1 && inner[0]) {
    const literal = out.literal;
    collect(inner[0], profile, bindings, depth, out);
    // text inside an interpolation is not the query's text
    out.literal = literal;
  } else out.values.push(node);
}

/** `fmt.Sprintf("… %s", x)`, `"…{}".format(x)`, `String.format(…)`: the format's text and the other arguments. */
function collectFormat(node: Node, profile: LanguageProfile, bindings: Bindings, depth: number, out: Parts): boolean {
  const args = argumentsOf(node, profile);
  const callee = calleeName(node);
  const receiver = receiverOf(node);
  // "…{}".format(x), q.format(x): the receiver is the format (String.format(f, x): a class's is not)
  if (FORMAT_RECEIVER.test(callee) && receiver && !/^[A-Z]\w*$/.test(receiver.text)) {
    collect(receiver, profile, bindings, depth, out);
    for (const arg of args) collect(arg, profile, bindings, depth, out);
    return true;
  }
  if (CONCAT_ALL.test(callee)) {
    for (const arg of args) collect(arg, profile, bindings, depth, out);
    return true;
  }
  if (WRAPPER.test(callee) && (args[0] || receiver)) {
    for (const arg of args) collect(arg, profile, bindings, depth, out);
    if (!args[0] && receiver) collect(receiver, profile, bindings, depth, out);
    return true;
  }
  if (FORMAT_FIRST.test(callee) && args[0]) {
    const format: Parts = { literal: '', values: [], builtAt: [], read: out.read };
    collect(args[0], profile, bindings, depth, format);
    out.literal += format.literal;
    out.values.push(...format.values);
    out.builtAt.push(...format.builtAt);
    out.read = format.read;
    // the values of a format that fills in numbers only (%d) cannot carry text
    if (format.values.length === 0 && !TEXT_VERB.test(format.literal)) return true;
    for (const arg of args.slice(1)) collect(arg, profile, bindings, depth, out);
    return true;
  }
  return false;
}

/** What a method is called on: `x` in `x.strip()` (C#'s member access names it `expression`). */
export function receiverOf(call: Node): Node | null {
  const callee = call.childForFieldName('function') ?? call;
  return (
    callee.childForFieldName('object') ??
    callee.childForFieldName('receiver') ??
    callee.childForFieldName('operand') ??
    callee.childForFieldName('expression')
  );
}

/** The callee with every member access written `.` (PHP's `->` and `::`, Ruby's `::`): `DB.select`, `Digest.MD5.hexdigest`. */
export function calleeName(call: Node): string {
  return calleeText(call).replace(/->|::/g, '.');
}

/** The callee as written, without spaces: `cursor.execute`, `new Function`, `fmt.Sprintf`. */
export function calleeText(call: Node): string {
  const args = call.namedChildren.findLast((child) => child?.type.includes('argument'));
  const end = args ? args.startIndex - call.startIndex : call.text.length;
  return call.text
    .slice(0, end)
    .replace(/\s+/g, ' ')
    .replace(/ ?([.:>-]) ?/g, '$1')
    .trim();
}

/** The arguments of a call, unwrapped (positional and keyword alike). */
export function argumentsOf(call: Node, profile: LanguageProfile): Node[] {
  const list = call.namedChildren.findLast((child) => child?.type.includes('argument'));
  if (!list) return [];
  return (
    list.namedChildren
      // a block passed on (Ruby's &block) is code, not data
      .filter((child): child is Node => child !== null && child.type !== 'comment' && child.type !== 'block_argument')
      .map((child) => {
        if (child.type === profile.argument) return child.namedChildren.at(-1) ?? child;
        if (child.type === 'keyword_argument') return child.childForFieldName('value') ?? child;
        return child;
      })
  );
}
