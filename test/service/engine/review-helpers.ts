// Small diffs for rule tests: a new file with the given lines, reviewed by the engine.
import { createEngine } from '../../../service/engine/index.ts';
import type { Engine, EngineConfig, Finding, ReviewResult } from '../../../service/engine/index.ts';

/** One engine per configuration, kept across tests as the worker keeps its own. */
const engines = new Map<string, Engine>();

export function reviewDiff(diff: string, config?: EngineConfig): Promise<ReviewResult> {
  const key = JSON.stringify(config ?? {});
  let engine = engines.get(key);
  if (!engine) engines.set(key, (engine = createEngine(config)));
  return engine.review(diff);
}

export function newFileDiff(path: string, lines: string[]): string {
  return [
    `diff --git a/${path} b/${path}`,
    'new file mode 100644',
    '--- /dev/null',
    `+++ b/${path}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((l) => `+${l}`),
    '',
  ].join('\n');
}

/** A modified file: `context` lines kept, then `added` lines added after them. */
export function modifiedFileDiff(path: string, context: string[], added: string[]): string {
  return [
    `diff --git a/${path} b/${path}`,
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -1,${context.length} +1,${context.length + added.length} @@`,
    ...context.map((l) => ` ${l}`),
    ...added.map((l) => `+${l}`),
    '',
  ].join('\n');
}

export async function findings(path: string, lines: string[], config?: EngineConfig): Promise<Finding[]> {
  return (await reviewDiff(newFileDiff(path, lines), config)).findings;
}

/** The rule ids that fire on a one-line file. */
export async function rulesOn(path: string, line: string): Promise<string[]> {
  return (await findings(path, [line])).map((f) => f.rule_id);
}

/** A real-looking GitHub token that is no one's (secretlint's example allowlists don't apply). */
export const FAKE_GITHUB_TOKEN = 'ghp_' + 'kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5sV0aE2u';
