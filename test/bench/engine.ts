// Benchmark of the review engine: diffs of 10 KB, 100 KB and 1,000,000 bytes made of real source
// files (new-file diffs of .js files under node_modules), beside a baseline measured in the same
// run: one pass of one simple regex over the same added lines. Run: node test/bench/engine.ts
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { reviewDiff } from '../../service/review/index.ts';

const ROOT = new URL('../../node_modules/', import.meta.url).pathname;

function collectSources(dir: string, out: string[], limit: number): void {
  if (out.length >= limit) return;
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of entries) {
    if (out.length >= limit) return;
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) collectSources(path, out, limit);
    else if (name.endsWith('.js') && !name.endsWith('.min.js') && stat.size > 2_000 && stat.size < 200_000) out.push(path);
  }
}

/** A diff of new files, exactly `bytes` long (the last file is cut to fit). */
function makeDiff(sources: string[], bytes: number): { diff: string; addedLines: string[] } {
  let diff = '';
  const addedLines: string[] = [];
  for (const [n, source] of sources.entries()) {
    const lines = readFileSync(source, 'utf8').replace(/\r/g, '').split('\n');
    const path = `src/pkg${n}/${source.slice(ROOT.length).replace(/\//g, '_')}`;
    const header = `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n`;
    let body = '';
    let count = 0;
    const room = bytes - Buffer.byteLength(diff) - header.length - 300;
    if (room <= 0) break;
    for (const line of lines) {
      if (body.length + line.length + 2 > room) break;
      body += `+${line}\n`;
      addedLines.push(line);
      count++;
    }
    if (count === 0) break;
    diff += `${header}@@ -0,0 +1,${count} @@\n${body}`;
  }
  // Pad to the exact size with a comment line in one more small file.
  const pad = bytes - Buffer.byteLength(diff);
  if (pad > 80) {
    const header = 'diff --git a/pad.txt b/pad.txt\nnew file mode 100644\n--- /dev/null\n+++ b/pad.txt\n@@ -0,0 +1 @@\n+';
    const filler = 'x'.repeat(pad - header.length - 1);
    diff += `${header}${filler}\n`;
    addedLines.push(filler);
  }
  return { diff, addedLines };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(fn: () => unknown, runs: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const sources: string[] = [];
collectSources(ROOT, sources, 2_000);

console.log(`engine benchmark (node ${process.version}), median of several runs after warm-up`);
let ok = true;
for (const size of [10_000, 100_000, 1_000_000]) {
  const { diff, addedLines } = makeDiff(sources, size);
  const bytes = Buffer.byteLength(diff);
  const runs = size >= 1_000_000 ? 15 : 40;
  let baselineHits = 0;
  const baseline = () => {
    // The simplest useful review: one regex over every added line.
    const re = /\bdebugger\b/;
    for (const line of addedLines) if (re.test(line)) baselineHits++;
  };
  await time(baseline, 5);
  await time(() => reviewDiff(diff), 5);
  const baselineMs = await time(baseline, runs);
  const engineMs = await time(() => reviewDiff(diff), runs);
  const result = await reviewDiff(diff);
  const mbps = bytes / 1e6 / (engineMs / 1000);
  const ratio = engineMs / baselineMs;
  console.log(
    `${String(bytes).padStart(9)} bytes  ${String(addedLines.length).padStart(6)} added lines  engine ${engineMs.toFixed(2).padStart(7)} ms (${mbps.toFixed(1)} MB/s)  baseline ${baselineMs.toFixed(2)} ms  ratio ${ratio.toFixed(1)}x  findings ${result.findings.length}`,
  );
  if (size === 1_000_000) {
    ok = engineMs < 100 && ratio < 5;
    console.log(`1 MB targets: < 100 ms ${engineMs < 100 ? 'met' : 'MISSED'}; < 5x baseline ${ratio < 5 ? 'met' : 'MISSED'}`);
  }
}
process.exitCode = ok ? 0 : 1;
