// `diff-review review` and `--help` load only what they need: not the HTTP server, the logger, the
// store or PostgreSQL (each command's code is imported when it runs). Timings: test/bench/cli.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI, buildCli } from './review-cli.ts';

const SERVICE_PACKAGES = [
  'fastify',
  '@fastify/swagger',
  '@fastify/rate-limit',
  'pino',
  'pg',
  'pg-boss',
  'lowdb',
  'piscina',
  'ky',
];
const HOOK = new URL('./loaded-packages.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'diff-review-lazy-'));

beforeAll(buildCli, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The npm packages the built CLI loads for these arguments. */
function packagesLoadedBy(args: string[]): string[] {
  const file = join(dir, 'loaded.txt');
  execFileSync(process.execPath, ['--import', HOOK, BUILT_CLI, ...args], {
    cwd: dir,
    env: { ...process.env, LOADED_PACKAGES_FILE: file },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return readFileSync(file, 'utf8').split('\n');
}

describe('what each command loads', () => {
  it('review loads the engine, not the service; the config parser only when there is a config file', () => {
    writeFileSync(
      join(dir, 'change.diff'),
      'diff --git a/a.js b/a.js\n--- a/a.js\n+++ b/a.js\n@@ -1,1 +1,2 @@\n a\n+debugger;\n',
    );
    const review = packagesLoadedBy(['review', '--diff', 'change.diff', '--fail-on', 'none']);
    expect(review).toContain('@secretlint/core'); // the engine did run
    expect(review.filter((name) => SERVICE_PACKAGES.includes(name))).toEqual([]);
    expect(review).not.toContain('typebox');
    expect(review).not.toContain('yaml');

    writeFileSync(join(dir, '.diff-review.yml'), 'rules:\n  no-debugger: off\n');
    const configured = packagesLoadedBy(['review', '--diff', 'change.diff']);
    expect(configured).toContain('yaml');
    expect(configured).not.toContain('typebox'); // a hand-written check (check-config.ts): no validator to load
    expect(configured.filter((name) => SERVICE_PACKAGES.includes(name))).toEqual([]);
    rmSync(join(dir, '.diff-review.yml'));
  });

  it('--help of every command loads none of the service', () => {
    for (const args of [['--help'], ['review', '--help'], ['serve', '--help'], ['token', 'create', '--help']]) {
      const loaded = packagesLoadedBy(args);
      expect({
        args,
        loaded: loaded.filter((name) => SERVICE_PACKAGES.includes(name) || name === '@secretlint/core'),
      }).toEqual({ args, loaded: [] });
    }
  });
});
