// Two checkouts of the review engine in one process, in alternation, each run followed by the
// engine benchmark's baseline (what a review finds in the caches after other work): the ratio of
// their times on the 1 MB diff holds where the machine's speed drifts. A change shows once it is
// larger than the spread of the same engine against itself (README.md says how large that is).
// Run: git worktree add /tmp/old <commit> && ln -s "$PWD/node_modules" /tmp/old/node_modules
//      node test/bench/engine-ab.ts /tmp/old [new checkout, default this one] [pairs, default 200]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { collectSources, makeDiff, median, regexBaseline } from './support/node-modules-diff.ts';

const [oldRoot, newRoot = new URL('../..', import.meta.url).pathname, pairs = '200'] = process.argv.slice(2);
if (!oldRoot) {
  console.error('usage: node test/bench/engine-ab.ts <old checkout> [new checkout] [pairs]');
  process.exit(2);
}
const load = async (root: string) => {
  const { createEngine } = await import(pathToFileURL(resolve(root, 'service/engine/index.ts')).href);
  return createEngine() as { review(diff: string): Promise<unknown> };
};
const [before, after] = [await load(oldRoot), await load(newRoot)];

const sources = collectSources();
for (const size of [10_000, 100_000]) {
  const { diff } = makeDiff(sources, size);
  for (let i = 0; i < 200; i++) {
    await before.review(diff);
    await after.review(diff);
  }
}
const { diff, addedLines } = makeDiff(sources, 1_000_000);
const baseline = regexBaseline(addedLines);
const time = async (engine: { review(diff: string): Promise<unknown> }) => {
  const start = performance.now();
  await engine.review(diff);
  const ms = performance.now() - start;
  baseline();
  return ms;
};
for (let i = 0; i < 50; i++) {
  await time(before);
  await time(after);
}
const olds: number[] = [];
const news: number[] = [];
const ratios: number[] = [];
const baselines: number[] = [];
for (let i = 0; i < Number(pairs); i++) {
  const old = await time(before);
  const start = performance.now();
  baseline();
  baselines.push(performance.now() - start);
  const now = await time(after);
  olds.push(old);
  news.push(now);
  ratios.push(now / old);
}
console.log(
  `1 MB: old ${median(olds).toFixed(3)} ms, new ${median(news).toFixed(3)} ms, new/old ${median(ratios).toFixed(3)} (median of ${pairs} pairs); baseline ${median(baselines).toFixed(3)} ms`,
);
