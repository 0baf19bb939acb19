// The npm package: `npm pack` ships the built service and CLI, the config schema and the rule
// pages, nothing else; installed from the tarball into an empty prefix it brings the runtime
// dependencies only, and `diff-review review` works from there, also on Node 22 (the oldest
// version `engines` allows; installed from the npm registry as .ci/run installs Node 24).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, FAKE_GITHUB_TOKEN, packCli } from './review-cli.ts';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'diff-review-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let packed: ReturnType<typeof packCli>;
beforeAll(() => {
  buildCli();
  packed = packCli(work);
}, 120_000);

describe('npm pack', () => {
  it('ships the built service and CLI, the schema, the rule pages, README and LICENSE; no sources, tests, maps or clients', () => {
    const paths = packed.files;
    for (const needed of ['dist/service/cli.js', 'dist/service/index.js', 'dist/service/review-worker.js'])
      expect(paths).toContain(needed);
    expect(paths).toContain('schema/diff-review-config.schema.json');
    expect(paths).toContain('docs/rules/no-debugger.md');
    expect(paths).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
    const stray = paths.filter(
      (p) =>
        !/^(dist\/service\/[\w-]+\.js|schema\/[\w.-]+\.json|docs\/rules\/[\w-]+\.md|README\.md|LICENSE|package\.json)$/.test(
          p,
        ),
    );
    expect(stray).toEqual([]);
    expect(packed.size).toBeLessThan(2_000_000);
  });

  it('has the metadata a published package needs, and every path it names is in the tarball', () => {
    expect(pkg).not.toHaveProperty('private');
    expect(pkg).toMatchObject({ name: 'diff-review', license: 'MIT', engines: { node: expect.any(String) } });
    expect(pkg.description).toEqual(expect.any(String));
    const paths = new Set(packed.files);
    const named = [
      ...Object.values(pkg.bin as Record<string, string>),
      ...Object.values(pkg.exports as Record<string, string>),
    ];
    for (const file of named) expect(paths, file).toContain(file.replace(/^\.\//, ''));
  });
});

describe('installed from the tarball into an empty prefix', () => {
  const prefix = join(work, 'prefix');
  beforeAll(async () => {
    await run('npm', ['install', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', packed.tarball]);
  }, 180_000);

  it('brings the runtime dependencies only: no Electron, VS Code tooling, bundler or test runner', () => {
    const installed = readdirSync(join(prefix, 'node_modules'));
    for (const dependency of Object.keys(pkg.dependencies))
      expect(installed, dependency).toContain(dependency.split('/')[0]);
    for (const devOnly of ['electron', 'electron-builder', 'esbuild', 'vitest', 'playwright-core', 'typescript'])
      expect(installed).not.toContain(devOnly);
    // of the VS Code team's packages, only the tree-sitter grammars (the structural stage); not its tooling
    expect(readdirSync(join(prefix, 'node_modules', '@vscode'))).toEqual(['tree-sitter-wasm']);
  });

  const diff = [
    'diff --git a/app.js b/app.js',
    '--- a/app.js',
    '+++ b/app.js',
    '@@ -1 +1,2 @@',
    ' x',
    `+const token = "${FAKE_GITHUB_TOKEN}";`,
    '',
  ].join('\n');

  /** Runs `file args` with the diff on stdin; never throws on a non-zero exit. */
  const reviewWith = (file: string, args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = execFile(file, args, { cwd: work }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
      child.on('error', reject);
      child.stdin!.end(diff);
    });

  const expectSecretFound = (result: { code: number | null; stdout: string; stderr: string }) => {
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as { comments: { file_path: string; line: number; severity: string }[] };
    expect(report.comments).toEqual([expect.objectContaining({ file_path: 'app.js', line: 2, severity: 'error' })]);
  };

  it('`diff-review review --diff -` works from there: finds the secret, exits 1, prints JSON', async () => {
    const bin = join(prefix, 'node_modules', '.bin', 'diff-review');
    expect(existsSync(bin)).toBe(true);
    expectSecretFound(await reviewWith(bin, ['review', '--diff', '-', '--format', 'json']));
    const { stdout: version } = await run(bin, ['--version']);
    expect(version.trim()).toBe(pkg.version);
  });

  it('works on Node 22, the oldest version `engines` allows', async (context) => {
    const node22 = await installNode22();
    if (node22 instanceof Error) {
      // In CI a Node 22 that cannot be installed is a failure, never a silent skip.
      if (process.env.CI) throw node22;
      context.skip(`Node 22 could not be installed from the npm registry: ${node22.message}`);
      return;
    }
    const { stdout: version } = await run(node22, ['--version']);
    expect(version).toMatch(/^v22\./);
    expect(pkg.engines.node).toBe('>=22.12');
    const cli = join(prefix, 'node_modules', 'diff-review', 'dist', 'service', 'cli.js');
    expectSecretFound(await reviewWith(node22, [cli, 'review', '--diff', '-', '--format', 'json']));
  }, 300_000);
});

/** Node 22's binary from the npm registry (the `node` package), in the cache .ci/run keeps Node 24 in; an Error when it cannot be had. */
async function installNode22(): Promise<string | Error> {
  const cache = join(process.env.DIFF_REVIEW_CACHE ?? join(homedir(), '.cache', 'diff-review'), 'node22');
  const binary = join(cache, 'node_modules/node/node_modules', `node-${process.platform}-${process.arch}`, 'bin/node');
  if (existsSync(binary)) return binary;
  try {
    await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', cache, 'node@22']);
  } catch (error) {
    return error as Error;
  }
  return existsSync(binary) ? binary : new Error(`npm installed node@22, but ${binary} is not there`);
}
