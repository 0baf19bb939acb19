// The string values of Go test code, read at evaluation time: string and raw literals, `+`,
// fmt.Sprintf, strings.Repeat, []string{…}, append(…, xs...), package- and function-level
// variables, and gitleaks' generators (secrets.NewSecret of a regex, made here by randexp from a
// seed, and the utils.AlphaNumeric(…)-style helpers that write those regexes). Anything else
// evaluates to undefined and the caller drops the case: an honest subset, not a Go interpreter.
import { createRequire } from 'node:module';
import { randomNumbers } from '../../../support/random-text.ts';

const RandExp: typeof import('randexp').default = createRequire(import.meta.url)('randexp');

/** A credential value a generator call marks as such, with the identifier it is sampled under. */
export interface Sample {
  sample: string;
  identifier: string;
}
export type GoValue = string | Sample | GoValue[] | null | undefined;

type Token = { kind: 'string' | 'ident' | 'number' | 'punct'; text: string };

/** Go's lexical tokens, enough for expressions: strings, raw strings, runes, identifiers, numbers, punctuation. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (source.startsWith('//', i)) {
      i = source.indexOf('\n', i) < 0 ? source.length : source.indexOf('\n', i);
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      tokens.push({ kind: c === '"' ? 'string' : 'number', text: unquote(source.slice(i + 1, j)) });
      i = j + 1;
    } else if (c === '`') {
      const end = source.indexOf('`', i + 1);
      const j = end < 0 ? source.length : end;
      tokens.push({ kind: 'string', text: source.slice(i + 1, j) });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][\w]*/.exec(source.slice(i, i + 200))!;
      tokens.push({ kind: 'ident', text: m[0] });
      i += m[0].length;
    } else if (/\d/.test(c)) {
      const m = /^[\d.xXa-fA-F_]+/.exec(source.slice(i, i + 100))!;
      tokens.push({ kind: 'number', text: m[0] });
      i += m[0].length;
    } else {
      const three = source.slice(i, i + 3);
      const two = source.slice(i, i + 2);
      const text = three === '...' ? three : [':=', '==', '!=', '&&', '||', '+='].includes(two) ? two : c;
      tokens.push({ kind: 'punct', text });
      i += text.length;
    }
  }
  return tokens;
}

/** An interpreted Go string literal's body. */
function unquote(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)/g, (_, e: string) => {
    if (e[0] === 'x' || e[0] === 'u' || e[0] === 'U') return String.fromCodePoint(Number.parseInt(e.slice(1), 16));
    if (/^[0-7]{3}$/.test(e)) return String.fromCharCode(Number.parseInt(e, 8));
    return ({ n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v' } as Record<string, string>)[e] ?? e;
  });
}

/** gitleaks' regex helpers (cmd/generate/config/utils): each writes a character class and a size. */
const REGEX_HELPERS: Record<string, (size: string) => string> = {
  Numeric: (n) => `[0-9]{${n}}`,
  Hex: (n) => `[a-f0-9]{${n}}`,
  AlphaNumeric: (n) => `[a-z0-9]{${n}}`,
  AlphaNumericExtendedShort: (n) => `[a-z0-9_-]{${n}}`,
  AlphaNumericExtended: (n) => `[a-z0-9=_-]{${n}}`,
  AlphaNumericExtendedLong: (n) => `[a-z0-9/=_+-]{${n}}`,
  Hex8_4_4_4_12: () => '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
};

/** Reads expressions from a token list, with the variables seen so far. */
export class GoReader {
  private at = 0;
  readonly variables = new Map<string, GoValue>();
  private readonly tokens: Token[];
  private readonly next: () => number;

  constructor(tokens: Token[], seed: number) {
    this.tokens = tokens;
    this.next = randomNumbers(seed);
  }

  get position(): number {
    return this.at;
  }
  set position(at: number) {
    this.at = at;
  }
  get done(): boolean {
    return this.at >= this.tokens.length;
  }
  peek(offset = 0): Token | undefined {
    return this.tokens[this.at + offset];
  }
  skip(): void {
    this.at++;
  }

  private take(text: string): boolean {
    if (this.tokens[this.at]?.text !== text) return false;
    this.at++;
    return true;
  }

  /** An expression: operands joined by `+`. */
  expression(): GoValue {
    let value = this.operand();
    while (this.peek()?.text === '+' && this.peek()?.kind === 'punct') {
      this.at++;
      const right = this.operand();
      value = typeof value === 'string' && typeof right === 'string' ? value + right : undefined;
    }
    return value;
  }

  private arguments(): GoValue[] | undefined {
    if (!this.take('(')) return undefined;
    const args: GoValue[] = [];
    while (!this.done && !this.take(')')) {
      args.push(this.expression());
      if (this.take('...')) args.push(...spread(args.pop()));
      if (!this.take(',') && this.peek()?.text !== ')') {
        this.skipTo(')');
        this.take(')');
        return undefined;
      }
    }
    return args;
  }

  /** Skips to the `close` that closes the current nesting level. */
  skipTo(close: string): void {
    let depth = 0;
    while (!this.done) {
      const t = this.peek()!.text;
      if (depth === 0 && (t === close || (close === ')' && t === '}'))) return;
      if (t === '(' || t === '{' || t === '[') depth++;
      if (t === ')' || t === '}' || t === ']') depth--;
      this.at++;
    }
  }

  private operand(): GoValue {
    const t = this.peek();
    if (!t) return undefined;
    if (t.kind === 'string') {
      this.at++;
      return t.text;
    }
    if (t.kind === 'number') {
      this.at++;
      return t.text;
    }
    if (t.text === '[' && this.peek(1)?.text === ']') {
      // []string{…}
      this.at += 2;
      while (!this.done && this.peek()!.text !== '{') this.at++;
      this.take('{');
      const items: GoValue[] = [];
      while (!this.done && !this.take('}')) {
        items.push(this.expression());
        if (!this.take(',') && this.peek()?.text !== '}') {
          this.skipTo('}');
        }
      }
      return items;
    }
    if (t.text === '(') {
      this.at++;
      const value = this.expression();
      this.take(')');
      return value;
    }
    if (t.kind !== 'ident') {
      this.at++;
      return undefined;
    }
    let name = t.text;
    this.at++;
    while (this.peek()?.text === '.' && this.peek(1)?.kind === 'ident') {
      name += `.${this.peek(1)!.text}`;
      this.at += 2;
    }
    if (name === 'nil') return null;
    if (this.peek()?.text !== '(') return this.variables.get(name);
    const args = this.arguments();
    return args ? this.call(name, args) : undefined;
  }

  private call(name: string, args: GoValue[]): GoValue {
    const strings = args.every((a) => typeof a === 'string') ? (args as string[]) : undefined;
    const short = name.replace(/^(?:utils|secrets|config)\./, '');
    if (short in REGEX_HELPERS && strings) return REGEX_HELPERS[short]!(strings[0] ?? '');
    switch (name) {
      case 'secrets.NewSecret':
        return strings ? this.fromRegex(strings[0]!) : undefined;
      case 'utils.GenerateSampleSecrets':
      case 'utils.GenerateSampleSecret':
        return strings ? [{ sample: strings[1]!, identifier: strings[0]! }] : undefined;
      case 'fmt.Sprintf':
        return strings ? sprintf(strings[0]!, strings.slice(1)) : undefined;
      case 'strings.Repeat':
        return strings ? strings[0]!.repeat(Number(strings[1])) : undefined;
      case 'strings.ToUpper':
        return strings ? strings[0]!.toUpperCase() : undefined;
      case 'strings.ToLower':
        return strings ? strings[0]!.toLowerCase() : undefined;
      case 'strings.Join':
        return Array.isArray(args[0]) && typeof args[1] === 'string'
          ? args[0].every((a) => typeof a === 'string')
            ? (args[0] as string[]).join(args[1])
            : undefined
          : undefined;
      case 'append':
        return Array.isArray(args[0]) ? [...args[0], ...args.slice(1)] : undefined;
      case 'string':
        return strings?.[0];
      default:
        return undefined;
    }
  }

  /** A string the regex matches (Go syntax: flags and anchors dropped), from the seed. */
  private fromRegex(regex: string): string | undefined {
    try {
      const generator = new RandExp(
        regex.replace(/\(\?[a-z]+\)|\\[Az]|\\b/g, '').replace(/\[\[:alnum:\]\]/g, '[A-Za-z0-9]'),
      );
      generator.max = 8;
      generator.defaultRange.subtract(0, 0x20);
      generator.defaultRange.subtract(0x7f, 0xffff);
      generator.randInt = (a: number, b: number) => a + Math.floor(this.next() * (b - a + 1));
      return generator.gen();
    } catch {
      return undefined;
    }
  }
}

function spread(value: GoValue): GoValue[] {
  return Array.isArray(value) ? value : [undefined];
}

function sprintf(format: string, args: string[]): string | undefined {
  let i = 0;
  let missing = false;
  const out = format.replace(/%%|%[-+ #0]*\d*(?:\.\d+)?[svqdxX]/g, (verb) => {
    if (verb === '%%') return '%';
    const arg = args[i++];
    if (arg === undefined) missing = true;
    return verb.endsWith('q') ? JSON.stringify(arg ?? '') : (arg ?? '');
  });
  return missing ? undefined : out;
}

/** Top-level and function-level `name := expr`, `name = expr`, `var name = expr`, `const name = expr` and `var ( … )` blocks, in order. */
export function readAssignments(reader: GoReader, until: (reader: GoReader) => boolean): void {
  while (!reader.done && !until(reader)) {
    const t = reader.peek()!;
    const next = reader.peek(1);
    if (t.kind === 'ident' && (next?.text === ':=' || (next?.text === '=' && reader.peek(-1)?.text !== '.'))) {
      reader.skip();
      reader.skip();
      const at = reader.position;
      const value = reader.expression();
      if (reader.position === at) reader.skip();
      reader.variables.set(t.text, value);
    } else if (t.kind === 'ident' && next?.kind === 'ident' && reader.peek(2)?.text === '=') {
      // var name string = expr
      reader.skip();
      reader.skip();
      reader.skip();
      reader.variables.set(t.text, reader.expression());
    } else {
      reader.skip();
    }
  }
}
