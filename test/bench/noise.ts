// Noise of the review engine on ordinary good code: reviews the diff of every commit of a
// repository (merges skipped) and reports comments per 1,000 added lines, by rule.
//
//   node test/bench/noise.ts [repo-path]            every commit of the repository (default: this one)
//   node test/bench/noise.ts --packages fastify,ky  the sources of installed packages, as new files
//   node test/bench/noise.ts --dirs /usr/lib/python3.11,…  the sources (Python, Go, Java, shell,
//                                                   YAML, …) under folders, as new files
//   add --list to print every comment with its line, --max N for the N most recent commits only
//   (a bare clone from the fetch tool works: only rev-list and show are asked)
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createEngine } from '../../service/engine/index.ts';
import type { Finding } from '../../service/engine/index.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

interface Reviewed {
  name: string;
  diff: string;
}

function commitsOf(repo: string, max: number | undefined): Reviewed[] {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const limit = max === undefined ? [] : [`--max-count=${max}`];
  const shas = git('rev-list', '--reverse', '--no-merges', ...limit, 'HEAD')
    .trim()
    .split('\n')
    .filter(Boolean);
  return shas.map((sha) => ({
    name: sha.slice(0, 10),
    diff: git('show', '--no-color', '--no-ext-diff', '--format=commit %H%n%n%s%n', sha),
  }));
}

/** The sources under `dir` that `accept` takes, as one diff of new files named by their path under `root`. */
function folderAsNewFiles(name: string, dir: string, root: string, accept: (file: string) => boolean): Reviewed {
  const files: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at).sort()) {
      const path = join(at, entry);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) {
        if (entry !== 'node_modules' && entry !== '__pycache__') walk(path);
      } else if (stat.isFile() && stat.size < 1_000_000 && accept(entry)) files.push(path);
    }
  };
  walk(dir);
  let diff = '';
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').replace(/\r/g, '').split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (lines.length === 0) continue;
    const path = relative(root, file);
    diff += `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}`).join('\n')}\n`;
  }
  return { name, diff };
}

/** The JavaScript and TypeScript sources of an installed package, as one diff of new files. */
function packageAsNewFiles(name: string): Reviewed {
  const accept = (file: string) => /\.(js|mjs|cjs|ts|mts|cts)$/.test(file) && !/\.d\.[mc]?ts$/.test(file);
  return folderAsNewFiles(name, join(ROOT, 'node_modules', name), join(ROOT, 'node_modules'), accept);
}

/** Sources of other languages and configuration under a folder (a system's Python, Go, shell, YAML). */
function folderSources(dir: string): Reviewed {
  const accept = (file: string) =>
    /\.(py|go|java|kt|rb|sh|bash|ya?ml|tf|toml|ini|cfg|conf|properties|php|cs|pl|txt|xml|config|plist)$/.test(file) ||
    /^(Dockerfile|Makefile)$/.test(file);
  return folderAsNewFiles(dir, dir, dirname(dir), accept);
}

function lineOf(diff: string, finding: Finding): string {
  // For --list: the added line the finding is on (good enough for new files and small commits).
  const header = diff.indexOf(`+++ b/${finding.file_path}\n`);
  if (header < 0) return '';
  let newLine = 0;
  for (const line of diff.slice(header).split('\n').slice(1)) {
    if (line.startsWith('diff --git ')) break;
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(line);
    if (hunk) newLine = Number(hunk[1]) - 1;
    else if (line.startsWith('+') || line.startsWith(' ')) {
      newLine++;
      if (newLine === finding.line && line.startsWith('+')) return line.slice(1).trim();
    }
  }
  return '';
}

const args = process.argv.slice(2);
const list = args.includes('--list');
const packagesAt = args.indexOf('--packages');
const packages = packagesAt >= 0 ? args[packagesAt + 1]!.split(',') : [];
const dirsAt = args.indexOf('--dirs');
const dirs = dirsAt >= 0 ? args[dirsAt + 1]!.split(',').map((dir) => resolve(dir)) : [];
const maxAt = args.indexOf('--max');
const max = maxAt >= 0 ? Number(args[maxAt + 1]) : undefined;
const valued = new Set(['--packages', '--dirs', '--max']);
const repo = resolve(args.find((arg, i) => !arg.startsWith('--') && !valued.has(args[i - 1] ?? '')) ?? ROOT);
const inputs =
  packages.length > 0
    ? packages.map(packageAsNewFiles)
    : dirs.length > 0
      ? dirs.map(folderSources)
      : commitsOf(repo, max);

const engine = createEngine({ maxFindings: 1_000_000 });
const byRule = new Map<string, number>();
let addedLines = 0;
let comments = 0;
for (const { name, diff } of inputs) {
  if (diff === '') continue; // a package or folder with no sources of the kinds read
  const { findings, stats } = await engine.review(diff);
  addedLines += stats.addedLines;
  comments += findings.length;
  for (const finding of findings) {
    byRule.set(finding.rule_id, (byRule.get(finding.rule_id) ?? 0) + 1);
    if (list)
      console.log(
        `${name}  ${finding.file_path}:${finding.line}  ${finding.severity}  ${finding.rule_id}  | ${lineOf(diff, finding).slice(0, 140)}`,
      );
  }
}

const perThousand = (count: number): string => (addedLines === 0 ? '0.00' : ((1000 * count) / addedLines).toFixed(2));
const source =
  packages.length > 0
    ? `packages ${packages.join(', ')} (as new files)`
    : dirs.length > 0
      ? `folders ${dirs.join(', ')} (as new files)`
      : `${inputs.length} commits of ${repo}`;
console.log(`\nnoise: ${source}`);
console.log(`| rule | comments | per 1,000 added lines |\n|---|---:|---:|`);
for (const [rule, count] of [...byRule].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])))
  console.log(`| ${rule} | ${count} | ${perThousand(count)} |`);
console.log(`| **all rules** | **${comments}** | **${perThousand(comments)}** |`);
console.log(`\nadded lines: ${addedLines}; comments: ${comments}`);
