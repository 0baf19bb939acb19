// Fresh folders for the tests of one file (data dirs, repositories), each removed after the test
// that made it, so a failing test leaves nothing behind either.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/**
 * Registers the afterEach that removes them and answers a maker of folders named
 * `diff-review-<name>-…`. Call it at the top of a test file, before the afterEach hooks that must
 * run first (vitest runs afterEach hooks last registered, first run).
 */
export function tempDirs(name: string): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  return async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `diff-review-${name}-`));
    made.push(dir);
    return dir;
  };
}
