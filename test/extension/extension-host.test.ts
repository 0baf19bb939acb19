// Runs the extension's integration tests in a real extension host (code-server's, driven by
// Chromium: see test/extension/host/) and passes only when every one of them passed.
// code-server is installed into a cache folder on first use (npm registry). Without Chromium the
// test is skipped with a note, unless CI is set: then a missing tool is a failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCodeServer, isInstalled } from './host/code-server-install.mjs';
import { SCREENSHOTS } from './host/screenshots.mjs';

const runner = path.join(import.meta.dirname, 'host', 'run.mjs');
const projectRoot = path.resolve(import.meta.dirname, '..', '..');
// Per run: two test runs at once in one tree must not read each other's results.
const resultsDir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-host-results-'));
const resultsFile = path.join(resultsDir, 'host-results.json');
const screenshotDir = path.join(projectRoot, 'test-output', 'extension', 'screenshots');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const onCi = Boolean(process.env.CI) && process.env.CI !== 'false';
const nodeMajor = Number(process.versions.node.split('.')[0]);

/** Why the run cannot happen here, or undefined when it can. */
function missingTool(): string | undefined {
  if (nodeMajor < 24)
    return `code-server needs Node 24 (this is Node ${process.versions.node}); put Node 24 first on the PATH.`;
  if (!existsSync(chromium))
    return `Chromium was not found at ${chromium}: install it (Debian/Ubuntu: apt-get install -y chromium) or set CHROMIUM to a Chrome/Chromium binary.`;
  return undefined;
}

interface HostResults {
  passed: number;
  failed: number;
  tests: { title: string; state: string; error?: string }[];
  figures: Record<string, number>;
}

function runHostTests(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [runner, ...args], {
      cwd: projectRoot,
      env: { ...process.env, DIFF_REVIEW_HOST_RESULTS: resultsFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    // Five windows (run.mjs's sessions), each with the launcher's own deadline (120 s); this one
    // only guards against a launcher hanging.
    const timer = setTimeout(() => child.kill('SIGTERM'), 400_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('the extension in a real extension host', () => {
  const missing = missingTool();

  beforeAll(() => {
    if (!missing && !isInstalled()) installCodeServer({ log: (line: string) => console.log(line) });
  }, 900_000);
  afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

  /** Runs the in-host tests; passes only when every one of them passed. */
  async function expectAllPassed(
    args: string[],
    skip: (note: string) => void,
    least: { tests: number; screenshots: boolean },
  ) {
    if (missing) {
      if (onCi) throw new Error(`The extension-host tests cannot run: ${missing}`);
      console.warn(`Skipping the extension-host tests: ${missing}`);
      skip(missing);
      return;
    }
    const { code, output } = await runHostTests(args);
    const results: HostResults | undefined = existsSync(resultsFile)
      ? JSON.parse(readFileSync(resultsFile, 'utf8'))
      : undefined;
    const failures =
      results?.tests.filter((test) => test.state !== 'passed').map((test) => `${test.title}\n${test.error}`) ?? [];
    expect(failures, output).toEqual([]);
    expect(code, output).toBe(0);
    expect(results?.passed, output).toBeGreaterThanOrEqual(least.tests);
    // Every screenshot the README shows (run.mjs lists them).
    if (least.screenshots)
      for (const name of SCREENSHOTS)
        expect(statSync(path.join(screenshotDir, `${name}.png`)).size).toBeGreaterThan(10_000);
    console.log(
      `extension host${args.length ? ` (${args.join(' ')})` : ''}: ${results?.passed} passed; figures ${JSON.stringify(results?.figures)}`,
    );
  }

  it(
    'passes every integration test (review → diagnostics, findings view, quick fixes, reload, screenshots)',
    (context) => expectAllPassed([], (note) => context.skip(note), { tests: 50, screenshots: true }),
    420_000,
  );

  // The same code ran every session above from source; the package only has to prove it is whole.
  it(
    'the packaged .vsix, unpacked outside the project: activates, reviews through its bundled service, fills the findings view',
    (context) => expectAllPassed(['--vsix'], (note) => context.skip(note), { tests: 3, screenshots: false }),
    420_000,
  );
});
