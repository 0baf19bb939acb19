// Splits one line of source into its code and its comment, so that rules about code do not fire
// on words in strings or comments ("// the debugger stops here"), and rules about comments
// (TODO, eslint-disable) do not fire on code. One line at a time: a line inside a block comment
// is recognised by its usual leading `*`, a line inside a multi-line string is not.

export interface LexedLine {
  /** The line with string contents and comments replaced by spaces (quotes kept): same length, same columns. */
  code: string;
  /** The line with everything but comments replaced by spaces: same length, same columns. */
  comment: string;
}

/** How comments look: `//` and block comments, `#`, or both (PHP). Markup and data have none we read. */
export type CommentSyntax = 'slash' | 'hash' | 'both' | 'sql' | 'none';

const SYNTAX_BY_EXTENSION: Record<string, CommentSyntax> = {};
for (const ext of ['js', 'jsx', 'mjs', 'cjs', 'ts', 'tsx', 'mts', 'cts', 'vue', 'svelte', 'astro', 'java', 'kt', 'kts', 'scala', 'swift', 'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'cs', 'go', 'rs', 'dart', 'groovy', 'gradle', 'm', 'mm', 'fs', 'zig', 'json5', 'jsonc', 'css', 'scss', 'less'])
  SYNTAX_BY_EXTENSION[ext] = 'slash';
for (const ext of ['py', 'pyw', 'pyi', 'rb', 'rake', 'sh', 'bash', 'zsh', 'pl', 'pm', 'r', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'tf', 'ex', 'exs', 'ps1', 'nim', 'jl', 'env', 'properties', 'dockerfile', 'mk', 'cmake'])
  SYNTAX_BY_EXTENSION[ext] = 'hash';
SYNTAX_BY_EXTENSION['php'] = 'both';
for (const ext of ['sql', 'lua', 'hs', 'elm']) SYNTAX_BY_EXTENSION[ext] = 'sql';

export function commentSyntaxOf(path: string): CommentSyntax {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) {
    if (/^(Dockerfile|Makefile|Gemfile|Rakefile|Procfile|Vagrantfile)$/.test(name)) return 'hash';
    return name.startsWith('.env') ? 'hash' : 'none';
  }
  if (name.startsWith('.env')) return 'hash';
  return SYNTAX_BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? 'none';
}

export function lexLine(text: string, syntax: CommentSyntax): LexedLine {
  if (syntax === 'none') return { code: text, comment: '' };
  const n = text.length;
  const trimmed = text.trimStart();
  const slash = syntax === 'slash' || syntax === 'both';
  const hash = syntax === 'hash' || syntax === 'both';
  // A continuation line of a block comment (" * text", " */") or a doc-comment opener is all comment.
  if (slash && (trimmed.startsWith('*') || trimmed.startsWith('/*'))) return { code: blank(n), comment: text };

  const code: string[] = [];
  let commentStart = -1;
  let quote = '';
  for (let i = 0; i < n; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') {
        code.push(i + 1 < n ? '  ' : ' ');
        i++;
        continue;
      }
      if (c === quote) {
        quote = '';
        code.push(c);
      } else code.push(' ');
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      quote = c;
      code.push(c);
      continue;
    }
    if (slash && c === '/' && text[i + 1] === '/') {
      commentStart = i;
      break;
    }
    if (slash && c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) {
        commentStart = i;
        break;
      }
      // An inline block comment: blank it in code; keep scanning after it.
      commentStart = commentStart < 0 ? i : commentStart;
      code.push(blank(close + 2 - i));
      i = close + 1;
      continue;
    }
    if (hash && c === '#') {
      commentStart = i;
      break;
    }
    if (syntax === 'sql' && c === '-' && text[i + 1] === '-') {
      commentStart = i;
      break;
    }
    code.push(c);
  }
  let codeText = code.join('');
  if (codeText.length < n) codeText += blank(n - codeText.length);
  const comment = commentStart < 0 ? '' : blank(commentStart) + text.slice(commentStart);
  return { code: codeText.slice(0, n), comment };
}

function blank(length: number): string {
  return ' '.repeat(Math.max(0, length));
}
