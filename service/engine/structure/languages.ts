// The languages the structural stage parses, and what the stage needs to know of each grammar:
// how calls, assignments, strings and functions are spelled in its syntax tree. Data, read by
// string-parts.ts and sinks.ts; a rule names its sinks per language (rules/*.ts, `syntax`).
import { isDockerfile } from '../rules/files.ts';

/** The languages read through a tree-sitter grammar. */
export type TreeLanguage =
  | 'javascript'
  | 'typescript'
  | 'tsx'
  | 'python'
  | 'go'
  | 'java'
  | 'ruby'
  | 'php'
  | 'csharp'
  | 'bash';

/** Every language the stage reads: YAML through the yaml package (yaml-documents.ts), the others through tree-sitter. */
export type SyntaxLanguage = TreeLanguage | 'yaml';

export interface LanguageProfile {
  /** The grammar's file: tree-sitter-<grammar>.wasm in @vscode/tree-sitter-wasm. */
  grammar: string;
  /** A query over calls and object creations: captures @call (the whole call) and @args (its argument list). */
  calls: string;
  /** A query over assignments of a value to a name: captures @name and @value. */
  assignments: string;
  /** Nodes whose body is a function's: the scope within which a name's value is followed. */
  functions: readonly string[];
  /** String literals, with or without interpolation. */
  strings: readonly string[];
  /** Children of a string that are its literal text. */
  stringText: readonly string[];
  /** Children of a string that are neither text nor a value (quotes, escapes): any other child is a value. */
  stringMarks: readonly string[];
  /** Binary operations that build a string: node type and operators. */
  concat: readonly { type: string; operators: readonly string[] }[];
  /** A node that wraps each argument of a call (C#, PHP). */
  argument?: string;
  /** Prepended to a hunk before it is parsed (PHP code outside `<?php` is text). */
  prelude?: string;
  /**
   * A hunk with no line that opens a declaration (`unless`) is statements from inside a function:
   * parsed inside `before` … `after` (Go allows no statement at the top level).
   */
  wrap?: { unless: RegExp; before: string; after: string };
  /** Indentation is syntax: the hunk's common indentation is taken off before parsing. */
  dedent?: boolean;
  /** Comments are also written /* … *\/: a hunk that starts inside one is parsed as such. */
  blockComments?: boolean;
}

const JS_CALLS = `
(call_expression arguments: (arguments) @args) @call
(new_expression arguments: (arguments) @args) @call`;
const JS_ASSIGNMENTS = `
(variable_declarator name: (identifier) @name value: (_) @value)
(assignment_expression left: (identifier) @name right: (_) @value)
(augmented_assignment_expression left: (identifier) @name right: (_) @value)`;
const JS_LIKE = {
  calls: JS_CALLS,
  assignments: JS_ASSIGNMENTS,
  functions: [
    'function_declaration',
    'function_expression',
    'arrow_function',
    'method_definition',
    'generator_function_declaration',
  ],
  strings: ['string', 'template_string'],
  stringText: ['string_fragment'],
  stringMarks: ['escape_sequence'],
  concat: [{ type: 'binary_expression', operators: ['+'] }],
  blockComments: true,
} as const;

export const PROFILES: Readonly<Record<TreeLanguage, LanguageProfile>> = {
  javascript: { grammar: 'javascript', ...JS_LIKE },
  typescript: { grammar: 'typescript', ...JS_LIKE },
  tsx: { grammar: 'tsx', ...JS_LIKE },
  python: {
    grammar: 'python',
    calls: '(call arguments: (argument_list) @args) @call',
    assignments: `
(assignment left: (identifier) @name right: (_) @value)
(augmented_assignment left: (identifier) @name right: (_) @value)`,
    functions: ['function_definition', 'lambda'],
    strings: ['string', 'concatenated_string'],
    stringText: ['string_content'],
    stringMarks: ['string_start', 'string_end', 'escape_sequence', 'escape_interpolation'],
    concat: [{ type: 'binary_operator', operators: ['+', '%'] }],
    dedent: true,
  },
  go: {
    grammar: 'go',
    blockComments: true,
    calls: '(call_expression arguments: (argument_list) @args) @call',
    assignments: `
(short_var_declaration left: (expression_list . (identifier) @name) right: (expression_list . (_) @value))
(assignment_statement left: (expression_list . (identifier) @name) right: (expression_list . (_) @value))
(var_spec name: (identifier) @name value: (expression_list . (_) @value))`,
    functions: ['function_declaration', 'method_declaration', 'func_literal'],
    strings: ['interpreted_string_literal', 'raw_string_literal'],
    stringText: ['interpreted_string_literal_content', 'raw_string_literal_content'],
    stringMarks: ['escape_sequence'],
    concat: [{ type: 'binary_expression', operators: ['+'] }],
    wrap: { unless: /^(?:func|package|type|import|var|const)\b/m, before: 'func _() {\n', after: '\n}' },
  },
  java: {
    grammar: 'java',
    blockComments: true,
    calls: `
(method_invocation arguments: (argument_list) @args) @call
(object_creation_expression arguments: (argument_list) @args) @call`,
    assignments: `
(variable_declarator name: (identifier) @name value: (_) @value)
(assignment_expression left: (identifier) @name right: (_) @value)`,
    functions: ['method_declaration', 'constructor_declaration', 'lambda_expression'],
    strings: ['string_literal', 'text_block'],
    stringText: ['string_fragment', 'multiline_string_fragment'],
    stringMarks: ['escape_sequence'],
    concat: [{ type: 'binary_expression', operators: ['+'] }],
  },
  ruby: {
    grammar: 'ruby',
    calls: '(call arguments: (argument_list) @args) @call',
    assignments: `
(assignment left: (identifier) @name right: (_) @value)
(operator_assignment left: (identifier) @name right: (_) @value)`,
    functions: ['method', 'singleton_method', 'lambda', 'block', 'do_block'],
    strings: ['string', 'heredoc_body', 'subshell'],
    stringText: ['string_content', 'heredoc_content'],
    stringMarks: ['escape_sequence', 'heredoc_end'],
    concat: [{ type: 'binary', operators: ['+', '%', '<<'] }],
  },
  php: {
    grammar: 'php',
    blockComments: true,
    calls: `
(function_call_expression arguments: (arguments) @args) @call
(member_call_expression arguments: (arguments) @args) @call
(scoped_call_expression arguments: (arguments) @args) @call
(object_creation_expression (arguments) @args) @call`,
    assignments: `
(assignment_expression left: (variable_name) @name right: (_) @value)
(augmented_assignment_expression left: (variable_name) @name right: (_) @value)`,
    functions: ['function_definition', 'method_declaration', 'anonymous_function', 'arrow_function'],
    strings: ['string', 'encapsed_string', 'heredoc', 'nowdoc', 'shell_command_expression'],
    stringText: ['string_content', 'string_value', 'heredoc_body', 'nowdoc_body'],
    stringMarks: ['escape_sequence', 'heredoc_start', 'heredoc_end'],
    concat: [{ type: 'binary_expression', operators: ['.'] }],
    argument: 'argument',
    prelude: '<?php\n',
  },
  csharp: {
    grammar: 'c-sharp',
    blockComments: true,
    calls: `
(invocation_expression arguments: (argument_list) @args) @call
(object_creation_expression arguments: (argument_list) @args) @call`,
    assignments: `
(variable_declarator name: (identifier) @name (_) @value)
(assignment_expression left: (identifier) @name right: (_) @value)`,
    functions: ['method_declaration', 'constructor_declaration', 'local_function_statement', 'lambda_expression'],
    strings: ['string_literal', 'verbatim_string_literal', 'interpolated_string_expression', 'raw_string_literal'],
    stringText: ['string_literal_content', 'string_content', 'raw_string_content'],
    stringMarks: [
      'escape_sequence',
      'interpolation_start',
      'interpolation_quote',
      'raw_string_start',
      'raw_string_end',
    ],
    concat: [{ type: 'binary_expression', operators: ['+'] }],
    argument: 'argument',
  },
  bash: {
    grammar: 'bash',
    // a command's arguments are its own children: the rules that read shell use queries, not sinks
    calls: '(command) @call',
    assignments: '(variable_assignment name: (variable_name) @name value: (_) @value)',
    functions: ['function_definition'],
    strings: ['string', 'raw_string'],
    stringText: ['string_content'],
    stringMarks: [],
    concat: [],
  },
};

const BY_EXTENSION: ReadonlyMap<string, SyntaxLanguage> = new Map([
  ['js', 'javascript'],
  ['jsx', 'javascript'],
  ['mjs', 'javascript'],
  ['cjs', 'javascript'],
  ['ts', 'typescript'],
  ['mts', 'typescript'],
  ['cts', 'typescript'],
  ['tsx', 'tsx'],
  ['py', 'python'],
  ['pyw', 'python'],
  ['go', 'go'],
  ['java', 'java'],
  ['rb', 'ruby'],
  ['rake', 'ruby'],
  ['php', 'php'],
  ['cs', 'csharp'],
  ['sh', 'bash'],
  ['bash', 'bash'],
  ['yml', 'yaml'],
  ['yaml', 'yaml'],
]);

export const SYNTAX_LANGUAGES: readonly SyntaxLanguage[] = [...(Object.keys(PROFILES) as TreeLanguage[]), 'yaml'];

/** The language a file is parsed as, by its extension, or null. A Dockerfile's is its shell (dockerfile-shell.ts). */
export function syntaxLanguageOf(path: string): SyntaxLanguage | null {
  if (isDockerfile(path)) return 'bash';
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot <= slash + 1) return null;
  return BY_EXTENSION.get(path.slice(dot + 1).toLowerCase()) ?? null;
}

const callTypes = new Map<LanguageProfile, ReadonlySet<string>>();

/** The node is a call (or an object creation) of the profile's `calls` query. */
export function isCall(profile: LanguageProfile, type: string): boolean {
  let types = callTypes.get(profile);
  if (!types) callTypes.set(profile, (types = new Set([...profile.calls.matchAll(/\((\w+) /g)].map((m) => m[1]!))));
  return types.has(type);
}
