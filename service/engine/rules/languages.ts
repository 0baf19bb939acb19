// The languages the engine knows, once: each file extension with how its comments look (what the
// lexer blanks) and whether it is source code (what code rules such as weak-crypto read).
// files.ts and lexer.ts both read this table.

/**
 * How comments look: `//` and block comments (`js`: also regular-expression literals), `#`,
 * or both (PHP), `--` (SQL, Lua, Haskell, Elm), `#` and a line that starts with `;` (INI).
 * Markup and data have none we read.
 */
export type CommentSyntax = 'js' | 'slash' | 'hash' | 'both' | 'sql' | 'ini' | 'none';

export const JS_EXTENSIONS = ['js', 'jsx', 'mjs', 'cjs', 'ts', 'tsx', 'mts', 'cts', 'vue', 'svelte', 'astro'];

/** [comment syntax, source code?, extensions]. */
const LANGUAGE_TABLE: readonly (readonly [CommentSyntax, boolean, readonly string[]])[] = [
  ['js', true, JS_EXTENSIONS],
  [
    'slash',
    true,
    ['java', 'kt', 'kts', 'scala', 'swift', 'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'cs', 'go', 'rs', 'dart'],
  ],
  ['slash', true, ['groovy', 'gradle', 'm', 'mm', 'fs', 'zig']],
  // Data and styles with // comments: lexed, but not code the code rules read.
  ['slash', false, ['json5', 'jsonc', 'css', 'scss', 'less']],
  ['hash', true, ['py', 'pyw', 'rb', 'sh', 'bash', 'zsh', 'pl', 'pm', 'r', 'yaml', 'yml', 'toml', 'tf', 'ex', 'exs']],
  ['hash', true, ['ps1', 'nim', 'jl']],
  ['hash', false, ['pyi', 'rake', 'cfg', 'conf', 'env', 'properties', 'dockerfile', 'mk', 'cmake']],
  ['ini', false, ['ini']],
  ['both', true, ['php']],
  ['sql', true, ['sql', 'lua', 'hs', 'elm']],
  // Source whose comments the lexer does not read.
  ['none', true, ['erl', 'clj']],
];

export const SYNTAX_BY_EXTENSION: ReadonlyMap<string, CommentSyntax> = new Map(
  LANGUAGE_TABLE.flatMap(([syntax, , extensions]) => extensions.map((ext) => [ext, syntax] as const)),
);

export const SOURCE_EXTENSIONS: readonly string[] = LANGUAGE_TABLE.flatMap(([, source, extensions]) =>
  source ? extensions : [],
);
