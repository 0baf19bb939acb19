// The engine benchmarks' input, new-file diffs of real JavaScript from node_modules of an exact
// size, and the baseline they are measured against.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../../node_modules/', import.meta.url).pathname;

function collectFrom(dir: string, out: string[], limit: number): void {
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
    if (stat.isDirectory()) collectFrom(path, out, limit);
    else if (name.endsWith('.js') && !name.endsWith('.min.js') && stat.size > 2_000 && stat.size < 200_000)
      out.push(path);
  }
}

/** A diff of new files, exactly `bytes` long (the last file is cut to fit). */
export function makeDiff(sources: string[], bytes: number): { diff: string; addedLines: string[] } {
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
    const header =
      'diff --git a/pad.txt b/pad.txt\nnew file mode 100644\n--- /dev/null\n+++ b/pad.txt\n@@ -0,0 +1 @@\n+';
    const filler = 'x'.repeat(pad - header.length - 1);
    diff += `${header}${filler}\n`;
    addedLines.push(filler);
  }
  return { diff, addedLines };
}

/** Up to 2,000 .js files of node_modules (2-200 KB, not minified), in a stable order. */
export function collectSources(): string[] {
  const out: string[] = [];
  collectFrom(ROOT, out, 2_000);
  return out;
}

/**
 * The baseline: the simplest useful review, one regex over every added line, already split (the
 * count is its answer). engine.ts and engine-ab.ts both measure against it.
 */
export function regexBaseline(addedLines: readonly string[]): () => number {
  const re = /\bdebugger\b/;
  return () => {
    let hits = 0;
    for (const line of addedLines) if (re.test(line)) hits++;
    return hits;
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
