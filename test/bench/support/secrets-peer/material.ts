// Credentials and non-credentials from other secret scanners' own test material, read where it
// lies at evaluation time (never committed: it carries its projects' licences). Each project is
// recognised by its layout:
//
// - gitleaks and betterleaks (cmd/generate/config/rules/*.go): each rule's true positives (`tps`,
//   mostly utils.GenerateSampleSecrets(identifier, value): the value is kept, the placements are
//   ours) and false positives (`fps`), values generated from their regexes by a seeded randexp;
// - trufflehog (pkg/detectors/**/<name>_test.go, not the integration tests): each pattern test's
//   `input` with a non-empty `want` is a credential as written, and every `want` that the input
//   holds verbatim is a credential value; an input whose `want` is nil is a non-credential as written;
// - detect-secrets (tests/plugins/*_test.py): the (line, should_flag) pairs of the plugins' tests.
//
// A label is the project's own: its detectors decide what counts (detect-secrets flags
// AKIAZZZZZZZZZZZZZZZZ, which is a placeholder here; a trufflehog key out of its keyword's range
// is "not found" there and a credential here). The figures say so beside them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { GoReader, type GoValue, readAssignments, type Sample, tokenize } from './go-values.ts';

export type PeerSource = 'gitleaks' | 'betterleaks' | 'trufflehog' | 'detect-secrets';

export interface PeerItem {
  source: PeerSource;
  /** The provider, as the project names its rule or detector (github, aws, openai). */
  service: string;
  /** A value alone (placed in files by us), or a text as the project wrote it (a line, a snippet). */
  shape: 'value' | 'as-written';
  text: string;
  /** The project's label: a credential (it must be found) or not. */
  credential: boolean;
}

const walk = (dir: string, accept: (path: string) => boolean): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? walk(path, accept) : accept(path) ? [path] : [];
    });

/**
 * A single token (no blank, no quote, not name=value or name:value) is a value; anything else (a
 * line, a snippet, an assignment) is a text as written.
 */
const shapeOf = (text: string): PeerItem['shape'] =>
  /^[^\s'"`]+$/.test(text) && !/^[A-Za-z_][\w.-]*(?:=|:(?!\/\/))./.test(text) ? 'value' : 'as-written';

const isSample = (value: GoValue): value is Sample => typeof value === 'object' && value !== null && 'sample' in value;

function flatten(value: GoValue): (string | Sample)[] {
  if (Array.isArray(value)) return value.flatMap(flatten);
  return typeof value === 'string' || isSample(value) ? [value] : [];
}

/** A gitleaks-layout project: the tps and fps of each rule function. */
function gitleaksLayout(dir: string, source: PeerSource): PeerItem[] {
  const rulesDir = join(dir, 'cmd/generate/config/rules');
  const items: PeerItem[] = [];
  let seed = 1;
  for (const file of walk(rulesDir, (p) => p.endsWith('.go') && !p.endsWith('_test.go'))) {
    const tokens = tokenize(readFileSync(file, 'utf8'));
    // each function body: from its `func` to the next top-level `func`
    const starts = tokens.flatMap((t, i) => (t.kind === 'ident' && t.text === 'func' ? [i] : []));
    starts.forEach((start, n) => {
      const body = tokens.slice(start, starts[n + 1] ?? tokens.length);
      const ruleAt = body.findIndex((t, i) => t.text === 'RuleID' && body[i + 1]?.text === ':');
      const ruleId = ruleAt >= 0 ? body[ruleAt + 2]?.text : undefined;
      if (!ruleId) return;
      const reader = new GoReader(body, seed++);
      readAssignments(reader, () => false);
      const service = ruleId.replace(
        /-(?:api|access|secret|personal|private|client|auth|refresh|oauth|app|token|key|pat|id)\b.*$/,
        '',
      );
      for (const [name, credential] of [
        ['tps', true],
        ['fps', false],
      ] as const) {
        for (const entry of flatten(reader.variables.get(name))) {
          const text = isSample(entry) ? entry.sample : entry;
          if (text.length === 0) continue;
          items.push({ source, service, shape: isSample(entry) ? 'value' : shapeOf(text), text, credential });
        }
      }
    });
  }
  return items;
}

/** trufflehog: the pattern tests' inputs and wants. */
function trufflehogLayout(dir: string): PeerItem[] {
  const detectors = join(dir, 'pkg/detectors');
  const items: PeerItem[] = [];
  let seed = 1;
  for (const file of walk(detectors, (p) => p.endsWith('_test.go') && !p.endsWith('_integration_test.go'))) {
    const service = relative(detectors, file).split('/')[0]!;
    const tokens = tokenize(readFileSync(file, 'utf8'));
    const reader = new GoReader(tokens, seed++);
    // package- and function-level variables first (validPattern = "…", keyword := "…")
    readAssignments(reader, () => false);
    reader.position = 0;
    while (!reader.done) {
      const t = reader.peek()!;
      if (t.text !== 'input' || reader.peek(1)?.text !== ':') {
        reader.skip();
        continue;
      }
      reader.skip();
      reader.skip();
      const input = reader.expression();
      // the same case's want: the next `want:` before the next `input:`
      let want: GoValue;
      while (!reader.done && reader.peek()!.text !== 'input') {
        if (reader.peek()!.text === 'want' && reader.peek(1)?.text === ':') {
          reader.skip();
          reader.skip();
          want = reader.expression();
          break;
        }
        reader.skip();
      }
      if (typeof input !== 'string' || input.trim() === '' || want === undefined) continue;
      const wanted = flatten(want).filter((w): w is string => typeof w === 'string' && w.length > 0);
      const credential = wanted.length > 0;
      items.push({ source: 'trufflehog', service, shape: 'as-written', text: input, credential });
      for (const value of wanted)
        if (input.includes(value) && shapeOf(value) === 'value')
          items.push({ source: 'trufflehog', service, shape: 'value', text: value, credential: true });
    }
  }
  return items;
}

/** detect-secrets: the (line, should_flag) pairs of its plugin tests, where the line is a plain literal. */
function detectSecretsLayout(dir: string): PeerItem[] {
  const items: PeerItem[] = [];
  for (const file of walk(join(dir, 'tests/plugins'), (p) => p.endsWith('_test.py'))) {
    const service = basename(file).replace(/_test\.py$/, '');
    const text = readFileSync(file, 'utf8');
    const pair = /\(\s*(?:r?'((?:[^'\\\n]|\\.)*)'|r?"((?:[^"\\\n]|\\.)*)")\s*,\s*(True|False)\s*,?\s*\)/g;
    for (const m of text.matchAll(pair)) {
      const line = (m[1] ?? m[2] ?? '').replace(/\\(['"\\])/g, '$1');
      if (line === '' || line.includes('{}')) continue;
      items.push({ source: 'detect-secrets', service, shape: shapeOf(line), text: line, credential: m[3] === 'True' });
    }
  }
  return items;
}

/** What the project at `dir` offers, by its layout; null when the layout is none of the known ones. */
export function peerItems(dir: string): { source: PeerSource; items: PeerItem[] } | null {
  if (existsSync(join(dir, 'cmd/generate/config/rules'))) {
    const source: PeerSource = existsSync(join(dir, 'config/betterleaks.toml')) ? 'betterleaks' : 'gitleaks';
    return { source, items: gitleaksLayout(dir, source) };
  }
  if (existsSync(join(dir, 'pkg/detectors'))) return { source: 'trufflehog', items: trufflehogLayout(dir) };
  if (existsSync(join(dir, 'tests/plugins')) && existsSync(join(dir, 'detect_secrets')))
    return { source: 'detect-secrets', items: detectSecretsLayout(dir) };
  return null;
}
