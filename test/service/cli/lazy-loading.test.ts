// `diff-review review` and `--help` load only what they need: not the HTTP server, the logger, the
// store or PostgreSQL (each command's code is imported when it runs); `serve` does not load the
// review engine until a request needs it (its reviews run in worker threads). Timings:
// test/bench/cli.ts and test/bench/cold-start.ts.
import { execFileSync, spawn } from 'node:child_process';
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

describe('what serve loads before its first request', () => {
  it('not the review engine (rules, secretlint): the SARIF and rules endpoints load it when first asked', async () => {
    const file = join(dir, 'serve-loaded.txt');
    const data = mkdtempSync(join(tmpdir(), 'diff-review-lazy-data-'));
    const child = spawn(process.execPath, ['--import', HOOK, BUILT_CLI, 'serve', '--port', '0', '--data-dir', data], {
      env: { ...process.env, LOADED_PACKAGES_FILE: file },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve did not say where it listens: ${out}`)), 30_000);
        child.stdout!.on('data', () => {
          const match = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[0]);
          }
        });
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(data, { recursive: true, force: true });
    }
    const loaded = readFileSync(file, 'utf8').split('\n');
    expect(loaded).toContain('fastify'); // the service did start
    expect(loaded).not.toContain('@secretlint/core');
  }, 60_000);
});
