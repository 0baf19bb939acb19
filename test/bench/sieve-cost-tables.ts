// Regenerates the keyword sieve's cost tables (CHAR_COST and PAIR_COST_TABLE in
// service/engine/keyword-sieve.ts) from the statistics of source code, and says how they differ
// from the tables in the file. Run: node test/bench/sieve-cost-tables.ts [--write]
//
// Corpus: the JavaScript and TypeScript sources of node_modules (2 KB to 200 KB, not minified:
// the files the engine benchmark reviews; the package-lock pins them) and of service/ and test/.
// Costs are in half-bits (-2·log2 of a probability, rounded), one base-36 digit each (at most
// 35): CHAR_COST for each of ASCII 32..126 on its own; PAIR_COST_TABLE for the 400 most frequent
// pairs, the cost of the second character after the first. The tables only steer which block
// of a keyword the sieve looks for (its speed), never what it finds.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
const SIEVE = join(ROOT, 'service/engine/keyword-sieve.ts');

function sources(dir: string, out: string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) {
      sources(path, out);
    } else if (/\.(?:[cm]?js|[cm]?ts|tsx|jsx)$/.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.min.js'))
      out.push(path);
  }
  return out;
}

const chars = new Float64Array(128);
const pairs = new Map<string, number>();
let totalChars = 0;
let totalPairs = 0;
const files = [
  ...sources(join(ROOT, 'node_modules'), []).filter((file) => {
    const size = statSync(file).size;
    return size > 2_000 && size < 200_000;
  }),
  ...sources(join(ROOT, 'service'), []),
  ...sources(join(ROOT, 'test'), []),
];
for (const file of files) {
  const text = readFileSync(file, 'latin1');
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) chars[c]!++;
    totalChars++;
    if (i > 0) {
      const pair = text.slice(i - 1, i + 1);
      pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
      totalPairs++;
    }
  }
}

const halfBits = (p: number): number => Math.min(35, Math.max(0, Math.round(-2 * Math.log2(p))));

let charCost = '';
for (let c = 32; c < 127; c++) charCost += halfBits(chars[c]! / totalChars).toString(36);

/** The 400 most frequent printable pairs. */
const ranked = [...pairs]
  .filter(([pair]) => /^[\x20-\x7e]{2}$/.test(pair))
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
let pairTable = '';
let covered = 0;
for (const [pair, count] of ranked) {
  if (pairTable.length / 3 >= 400) break;
  covered += count;
  pairTable += pair + halfBits(count / chars[pair.charCodeAt(0)]!).toString(36);
}

const current = readFileSync(SIEVE, 'utf8');
const oldChar = /const CHAR_COST = "([^"]*)";/.exec(current)![1]!;
const oldPairs = JSON.parse(/const PAIR_COST_TABLE =\s*("(?:[^"\\]|\\.)*");/.exec(current)![1]!) as string;
const asMap = (table: string) =>
  new Map(Array.from({ length: table.length / 3 }, (_, i) => [table.slice(3 * i, 3 * i + 2), table[3 * i + 2]!]));
const oldMap = asMap(oldPairs);
const newMap = asMap(pairTable);
let charDiffs = 0;
for (let i = 0; i < charCost.length; i++) if (charCost[i] !== oldChar[i]) charDiffs++;
let pairDiffs = 0;
for (const [pair, cost] of newMap) if (oldMap.get(pair) !== cost) pairDiffs++;

console.log(`corpus: ${totalChars} characters`);
console.log(`CHAR_COST = ${JSON.stringify(charCost)}`);
console.log(`PAIR_COST_TABLE = ${JSON.stringify(pairTable)}`);
const rarest = ranked[Math.min(ranked.length, 400) - 1]!;
console.log(
  `${newMap.size} pairs cover ${((100 * covered) / totalPairs).toFixed(1)}% of all pairs; the rarest listed, ${JSON.stringify(rarest[0])}, has p = ${(rarest[1] / totalPairs).toFixed(5)} (UNLISTED_PAIR must cost more)`,
);
console.log(
  `against the tables in keyword-sieve.ts: ${charDiffs} of ${charCost.length} character costs differ, ${pairDiffs} of ${newMap.size} pairs are new or cost differently`,
);
if (process.argv.includes('--write')) {
  writeFileSync(
    SIEVE,
    current
      .replace(`"${oldChar}"`, JSON.stringify(charCost))
      .replace(JSON.stringify(oldPairs), JSON.stringify(pairTable)),
  );
  console.log('written');
}
