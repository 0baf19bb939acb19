// What the peer corpus is made of: other projects' files, each turned into a new file of a diff,
// and the cases their authors labelled in them ("must flag" / "must not flag"), mapped to our rules.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Our security rules a peer's case may be mapped to (docs/rules). */
export type OurRule =
  | 'no-sql-string-building'
  | 'no-eval'
  | 'no-shell-injection'
  | 'no-pickle-loads'
  | 'no-unsafe-yaml-load'
  | 'no-tls-verify-off'
  | 'no-jwt-verify-off'
  | 'no-pipe-to-shell'
  | 'no-actions-script-injection'
  | 'no-pull-request-target-checkout'
  | 'no-weak-hash'
  | 'no-insecure-random'
  | 'no-inner-html'
  | 'no-cors-any-origin-credentials'
  | 'no-debug-in-production'
  | 'no-privileged-container'
  | 'no-world-writable'
  | 'secret'
  | 'no-private-key';

/** One file of a peer's material, as it enters the diff. */
export interface MaterialFile {
  /** Where it comes from: the path in the peer's checkout (for --misses). */
  source: string;
  /** Added to a line number here, gives the line in `source` (a sample embedded in a bigger file). */
  sourceLineOffset: number;
  /** Its path in the reviewed diff: neutral folders, so that no test-file convention applies. */
  diffPath: string;
  lines: string[];
}

/** Lines [from, to] (1-based, inclusive) of one file. */
export interface Span {
  file: MaterialFile;
  from: number;
  to: number;
}

/** One labelled case: found when a finding of the rule is in any of its spans. */
export interface PeerCase {
  rule: OurRule;
  /** The peer's own rule or check id (for --misses). */
  peerRule: string;
  /** flag: the peer says it must be reported; clean: it must not. */
  kind: 'flag' | 'clean';
  spans: Span[];
  /** For a case as large as a file: the line --misses shows (in the first span's file). */
  focus?: number;
}

export interface PeerMaterial {
  project: string;
  files: MaterialFile[];
  cases: PeerCase[];
}

/** A peer project: recognised by its layout, read into cases. */
export interface PeerProject {
  name: string;
  recognise(dir: string): boolean;
  read(dir: string, window: number): PeerMaterial;
}

/** A file's lines, without carriage returns and without the empty line after the last newline. */
export function readLines(path: string): string[] {
  return splitLines(readFileSync(path, 'utf8'));
}

export function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export const hasPaths = (dir: string, ...paths: string[]): boolean => paths.every((p) => existsSync(join(dir, p)));

/** Every file under `dir` (relative paths, sorted), skipping dot folders. */
export function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(join(dir, relative)).sort()) {
      const path = relative === '' ? entry : `${relative}/${entry}`;
      const stat = statSync(join(dir, path), { throwIfNoEntry: false });
      if (stat?.isDirectory()) {
        if (!entry.startsWith('.')) walk(path);
      } else if (stat?.isFile()) found.push(path);
    }
  };
  walk('');
  return found;
}

/**
 * A base name without the test-file conventions (`x.test.yaml`, `test_x.py`, `x_test.go`): the
 * material is reviewed as the code a pull request would add, not as tests, which several rules skip.
 */
export function neutralName(name: string): string {
  return name
    .replace(/[._-](?:test|spec)(?=\.[^.]+$)/i, '')
    .replace(/^test_/i, '')
    .replace(/_test(?=\.)/i, '');
}

/** The diff path of the `index`-th file of a project: its own folder, under a neutral root. */
export function diffPathOf(project: string, index: number, name: string): string {
  return `peer/${project}/${String(index).padStart(4, '0')}/${name}`;
}

/** A GitHub Actions workflow as a pull request adds it (our Actions rules read .github/workflows only). */
export function workflowName(name: string): string {
  return /^action\.ya?ml$/.test(name) ? name : `.github/workflows/${name.replace(/\.yaml$/, '.yml')}`;
}

/** The first line of a file matching `pattern`, if any (a case's focus). */
export function firstLineMatching(
  file: MaterialFile,
  pattern: RegExp,
  from = 1,
  to = file.lines.length,
): number | undefined {
  for (let line = from; line <= to; line++) if (pattern.test(file.lines[line - 1]!)) return line;
  return undefined;
}

/** A whole file as one span. */
export const wholeFile = (file: MaterialFile): Span => ({ file, from: 1, to: Math.max(1, file.lines.length) });
