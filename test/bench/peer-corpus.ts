// Security rules on other projects' test material (issue 22). Each DIR is one peer project,
// recognised by its layout; its labelled "must flag" / "must not flag" material is mapped to our
// rules (what each project offers and what is mapped, and why: support/peer-corpus/<project>.ts).
// Every material file is added as a new file of one diff per project, under a neutral path
// (peer/<project>/NNNN/<name>, workflows under .github/workflows/) so that no test-file convention
// applies, and the diff is reviewed by createEngine({ maxFindings: 100000 }), defaults otherwise
// (nosec, nosemgrep and the like are honoured, as for any user). The material is read where it lies
// at evaluation time and never committed: it carries its projects' licences.
//
//   node test/bench/peer-corpus.ts DIR…                Markdown table: per rule and project, cases,
//                                                       recall and precision; a row per rule; a total
//   node test/bench/peer-corpus.ts --misses RULE DIR…   also the cases RULE missed and the lines it
//                                                       reported on "must not flag" material
//
// Fetching: the `fetch` tool with github:semgrep/semgrep-rules, github:ajinabraham/njsscan,
// github:securego/gosec, github:zizmorcore/zizmor, github:stackrox/kube-linter gives bare git
// directories, /work/.mirror/OWNER+NAME/repo. DIR may be such a directory (its HEAD is extracted to
// a temporary folder, removed at the end) or a tree extracted from it:
//   git --git-dir=/work/.mirror/semgrep+semgrep-rules/repo archive HEAD | tar -x -C /tmp/peer/semgrep-rules
// PyCQA/bandit was tried and left out: its examples carry no per-line labels (its functional tests
// count issues per file), and bandit itself could not be installed here to say which lines.
//
// Scoring: a label names a statement's first line; a finding of the mapped rule on it or up to
// PEER_WINDOW lines after it (default 3; the whole statement it opens, brackets and braces closed
// again, up to 30 lines: the peers' tools report a match at its first line, this engine at the line
// inside it that does the harm; a YAML block scalar such as `run: |` to its end; never past the
// next label) finds it, and so does one on the first line of the statement the labelled line
// sits in (an argument on a line of its own, a `.query(…)` of a chain: up to 6 lines back, by
// unclosed parentheses); whole-file and whole-object labels (gosec samples, njsscan's
// true_negatives, kube-linter objects) take a finding anywhere in them. Precision counts findings:
// on "must flag" spans against those on "must not flag" spans; findings elsewhere are not judged.
//
// Environment: PEER_WINDOW (default 3). Exits 0 whatever the figures; 2 on wrong arguments.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createEngine } from '../../service/engine/index.ts';
import { newFileDiff } from '../service/engine/review-helpers.ts';
import { gosec } from './support/peer-corpus/gosec.ts';
import { kubeLinter } from './support/peer-corpus/kube-linter.ts';
import type { OurRule, PeerProject } from './support/peer-corpus/material.ts';
import { njsscan } from './support/peer-corpus/njsscan.ts';
import { printMisses, printTable } from './support/peer-corpus/report.ts';
import type { Tally } from './support/peer-corpus/score.ts';
import { tallyProject } from './support/peer-corpus/score.ts';
import { semgrepRules } from './support/peer-corpus/semgrep-rules.ts';
import { zizmor } from './support/peer-corpus/zizmor.ts';

const PROJECTS: readonly PeerProject[] = [semgrepRules, njsscan, gosec, zizmor, kubeLinter];

const RULE_ORDER: readonly OurRule[] = [
  'no-sql-string-building',
  'no-eval',
  'no-shell-injection',
  'no-pickle-loads',
  'no-unsafe-yaml-load',
  'no-tls-verify-off',
  'no-jwt-verify-off',
  'no-pipe-to-shell',
  'no-actions-script-injection',
  'no-pull-request-target-checkout',
  'no-weak-hash',
  'no-insecure-random',
  'no-inner-html',
  'no-cors-any-origin-credentials',
  'no-debug-in-production',
  'no-privileged-container',
  'no-world-writable',
  'secret',
  'no-private-key',
];

const USAGE = `usage: node test/bench/peer-corpus.ts [--misses RULE] DIR…
  DIR: a checkout (or bare git directory) of ${PROJECTS.map((p) => p.name).join(', ')}
  RULE: one of ${RULE_ORDER.join(', ')}
  PEER_WINDOW=N: lines after a labelled line that still count (default 3)`;

/** Wrong arguments: the message and the usage are printed, and the script exits 2. */
class UsageError extends Error {
  override name = 'UsageError';
}

function usage(problem: string): never {
  throw new UsageError(problem);
}

function parseArgs(argv: string[]): { dirs: string[]; misses?: string; window: number } {
  const dirs: string[] = [];
  let misses: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--misses') {
      misses = argv[++i];
      if (!misses || !(RULE_ORDER as readonly string[]).includes(misses)) usage(`--misses needs a rule id`);
    } else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
    else dirs.push(resolve(arg));
  }
  if (dirs.length === 0) usage('no DIR given');
  const window = Number(process.env.PEER_WINDOW ?? 3);
  if (!Number.isInteger(window) || window < 0) usage('PEER_WINDOW must be a whole number');
  return { dirs, misses, window };
}

const isBareRepository = (dir: string): boolean =>
  ['HEAD', 'objects', 'refs'].every((p) => existsSync(join(dir, p))) && !existsSync(join(dir, '.git'));

/** A folder holding the project's files: DIR itself, or its HEAD extracted when it is a bare repository. */
function checkoutOf(dir: string, scratch: string): { tree: string; commit?: string } {
  if (!existsSync(dir)) usage(`${dir} does not exist`);
  if (!isBareRepository(dir)) return { tree: dir };
  const git = (...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { maxBuffer: 1 << 30 });
  const tree = mkdtempSync(join(scratch, `${basename(dirname(dir))}-`));
  execFileSync('tar', ['-x', '-C', tree], { input: git('archive', '--format=tar', 'HEAD'), maxBuffer: 1 << 30 });
  return { tree, commit: git('rev-parse', 'HEAD').toString().trim() };
}

function projectOf(tree: string, dir: string): PeerProject {
  return PROJECTS.find((p) => p.recognise(tree)) ?? usage(`${dir} is not a checkout of a project this script knows`);
}

async function main(): Promise<void> {
  const { dirs, misses, window } = parseArgs(process.argv.slice(2));
  const scratch = mkdtempSync(join(tmpdir(), 'peer-corpus-'));
  const engine = createEngine({ maxFindings: 100_000 });
  const tallies: Tally[] = [];
  try {
    for (const dir of dirs) {
      const { tree, commit } = checkoutOf(dir, scratch);
      const project = projectOf(tree, dir);
      const material = project.read(tree, window);
      const diff = material.files
        .filter((f) => f.lines.length > 0)
        .map((f) => newFileDiff(f.diffPath, f.lines))
        .join('');
      const { findings } = await engine.review(diff);
      const flag = material.cases.filter((c) => c.kind === 'flag').length;
      console.log(
        `${project.name}: ${dir}${commit ? ` @ ${commit.slice(0, 12)}` : ''}: ${material.files.length} files, ` +
          `${flag} must flag, ${material.cases.length - flag} must not flag`,
      );
      tallies.push(...tallyProject(material, findings));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`\nPeer corpus, a label counts a finding up to ${window} lines after it:\n`);
  printTable(tallies, RULE_ORDER);
  if (misses) printMisses(misses, tallies);
}

try {
  await main();
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`${error.message}\n${USAGE}`);
  process.exitCode = 2;
}
