#!/usr/bin/env node
// Runs the extension's integration tests (./suite) in a real extension host, through
// @vscode/test-electron's runTests:
//
//   node test/extension/host/run.mjs            # code-server's extension host + Chromium (./code-server-launcher.mjs)
//   node test/extension/host/run.mjs --vscode   # real VS Code, downloaded by @vscode/test-electron
//   node test/extension/host/run.mjs --vsix     # the packaged .vsix (npm run package:extension), unpacked: smoke session
//   node test/extension/host/run.mjs --extension=<dir>   # another copy of the extension
//
// Builds the extension and the tests, makes the fixture repository, and exits with the tests' code.
// Results: test-output/extension/host-results.json; screenshots: test-output/extension/screenshots/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { runTests } from '@vscode/test-electron';
import { buildExtension, projectRoot } from '../../../extension/scripts/build.mjs';
import { createFixtureRepository } from './fixture.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const outputDir = path.join(projectRoot, 'test-output', 'extension');
export const resultsFile = process.env.DIFF_REVIEW_HOST_RESULTS || path.join(outputDir, 'host-results.json');
export const screenshotDir = path.join(outputDir, 'screenshots');

const suiteDir = path.join(outputDir, 'host-suite');

async function main() {
  const useVsCode = process.argv.includes('--vscode');
  const extensionArgument = process.argv.find((argument) => argument.startsWith('--extension='));
  const unpacked = process.argv.includes('--vsix') ? await packAndUnpack() : undefined;
  const extensionDir =
    unpacked?.dir ??
    (extensionArgument
      ? path.resolve(extensionArgument.slice('--extension='.length))
      : path.join(projectRoot, 'extension'));
  mkdirSync(outputDir, { recursive: true });
  // (the smoke session takes no screenshots: those of the run from source stay)
  for (const stale of unpacked ? [resultsFile] : [resultsFile, screenshotDir])
    rmSync(stale, { force: true, recursive: true });

  await buildExtension();
  await build({
    // The runner, every *.host.ts test file, and the script that plays another window.
    entryPoints: readdirSync(path.join(here, 'suite'))
      .filter((file) => file === 'index.ts' || file === 'other-window.ts' || file.endsWith('.host.ts'))
      .map((file) => path.join(here, 'suite', file)),
    outdir: suiteDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['vscode', 'mocha'], // mocha is found in the project's node_modules, above test-output/
    logLevel: 'warning',
  });
  // The project's package.json says "type": "module"; these bundles are CommonJS.
  writeFileSync(path.join(suiteDir, 'package.json'), '{ "type": "commonjs" }\n');

  const env = (session, extra = {}) => ({
    DIFF_REVIEW_HOST_SESSION: session,
    DIFF_REVIEW_HOST_RESULTS: session === 'main' ? resultsFile : `${resultsFile}.${session}.json`,
    DIFF_REVIEW_SCREENSHOTS: useVsCode ? '' : screenshotDir,
    // The launcher's `#!/usr/bin/env node` must find this Node (code-server needs 24).
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
    ...extra,
  });
  const launch = async (session, folder, extra) => {
    try {
      await runTests({
        ...(useVsCode ? {} : { vscodeExecutablePath: path.join(here, 'code-server-launcher.mjs') }),
        extensionDevelopmentPath: extensionDir,
        extensionTestsPath: path.join(suiteDir, 'index.js'),
        launchArgs: [...(folder ? [folder] : []), '--disable-extensions'],
        extensionTestsEnv: env(session, extra),
      });
      return 0;
    } catch (error) {
      console.error(`session ${session}: ${error instanceof Error ? error.message : error}`);
      return typeof error?.code === 'number' ? error.code : 1;
    }
  };

  const fixture = createFixtureRepository();
  // Reloads, a subfolder and no folder: windows of their own, on a fresh repository and one kept
  // profile (code-server only: under VS Code, @vscode/test-electron owns the profile).
  const reloaded = useVsCode || unpacked ? undefined : createFixtureRepository();
  const sandbox = mkdtempSync(path.join(os.tmpdir(), 'diff-review-host-kept-'));
  try {
    // DIFF_REVIEW_HOST_SESSIONS=reload-before,reload-after: only those (while working on them).
    // The packaged .vsix: the smoke session only (the same code ran every session from source).
    const only = unpacked ? ['smoke'] : process.env.DIFF_REVIEW_HOST_SESSIONS?.split(',');
    const wanted = (session) => !only || only.includes(session);
    const codes = wanted('main') ? [await launch('main', fixture.work)] : [];
    if (unpacked) codes.push(await launch('smoke', fixture.work, { DIFF_REVIEW_HOST_RESULTS: resultsFile }));
    if (reloaded) {
      const kept = { DIFF_REVIEW_HOST_SANDBOX: sandbox };
      if (wanted('reload-before')) codes.push(await launch('reload-before', reloaded.work, kept));
      // While the window was away: feature checked out again (reload-before left main), and two
      // lines added above the finding.
      if (wanted('reload-before')) spawnSync('git', ['checkout', '-q', 'feature'], { cwd: reloaded.work });
      const appJs = path.join(reloaded.work, 'src', 'app.js');
      writeFileSync(appJs, `// one\n// two\n${readFileSync(appJs, 'utf8')}`);
      if (wanted('reload-after')) codes.push(await launch('reload-after', reloaded.work, kept));
      if (wanted('subfolder')) codes.push(await launch('subfolder', path.join(reloaded.work, 'src'), kept));
      if (wanted('no-folder')) codes.push(await launch('no-folder', undefined, kept));
      mergeResults(['reload-before', 'reload-after', 'subfolder', 'no-folder'].filter(wanted));
    }
    return codes.find((code) => code !== 0) ?? 0;
  } finally {
    fixture.remove();
    reloaded?.remove();
    rmSync(sandbox, { recursive: true, force: true });
    unpacked?.remove();
    if (existsSync(resultsFile)) console.log(`results: ${path.relative(projectRoot, resultsFile)}`);
  }
}

/** Adds the other sessions' results to the main session's file (one summary, one figures object). */
function mergeResults(sessions) {
  const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
  const merged = read(resultsFile) ?? { passed: 0, failed: 0, tests: [], figures: {} };
  for (const session of sessions) {
    const file = `${resultsFile}.${session}.json`;
    const results = read(file);
    if (!results) {
      merged.failed++;
      merged.tests.push({ title: `session ${session}`, state: 'failed', durationMs: 0, error: 'wrote no results' });
      continue;
    }
    merged.passed += results.passed;
    merged.failed += results.failed;
    merged.tests.push(...results.tests.map((test) => ({ ...test, title: `[${session}] ${test.title}` })));
    Object.assign(merged.figures, results.figures);
    rmSync(file, { force: true });
  }
  writeFileSync(resultsFile, JSON.stringify(merged, null, 2));
  console.log(`figures: ${JSON.stringify(merged.figures)}`);
}

/**
 * Packs the .vsix as users get it and unpacks its `extension/` folder outside the project, where no
 * node_modules can stand in for something the package lacks.
 */
async function packAndUnpack() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'diff-review-vsix-'));
  const vsix = path.join(root, 'diff-review.vsix'); // not dist/: parallel runs must not share it
  const packed = spawnSync(
    process.execPath,
    [path.join(projectRoot, 'extension', 'scripts', 'package.mjs'), '--out', vsix],
    { encoding: 'utf8' },
  );
  if (packed.status !== 0) throw new Error(`npm run package:extension failed:\n${packed.stdout}${packed.stderr}`);
  // yauzl reads zips for vsce itself; ask for it through vsce.
  const yauzl = createRequire(createRequire(import.meta.url).resolve('@vscode/vsce/package.json'))('yauzl');
  const zip = await new Promise((resolve, reject) =>
    yauzl.open(vsix, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  await new Promise((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry) => {
      if (!entry.fileName.startsWith('extension/') || entry.fileName.endsWith('/')) return zip.readEntry();
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks = [];
        stream.on('data', (chunk) => chunks.push(chunk));
        stream.on('end', () => {
          const target = path.join(root, entry.fileName);
          mkdirSync(path.dirname(target), { recursive: true });
          writeFileSync(target, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  console.log(`packed and unpacked the .vsix in ${root}`);
  return { dir: path.join(root, 'extension'), remove: () => rmSync(root, { recursive: true, force: true }) };
}

process.exitCode = await main();
