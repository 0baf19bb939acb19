#!/usr/bin/env node
// Runs VS Code extension tests in code-server's real (Node) extension host, driven by headless
// Chromium through playwright-core. Takes the arguments VS Code takes, so @vscode/test-electron can
// use it as `vscodeExecutablePath`:
//
//   code-server-launcher.mjs [folder] --extensionDevelopmentPath=<dir> --extensionTestsPath=<file> [other flags, ignored]
//
// Exits with the tests' exit code (0: run() resolved). Environment:
//   CHROMIUM                  Chromium or Chrome (default /usr/bin/chromium)
//   CODE_SERVER_DIR           an install made by code-server-install.mjs (default: its cache folder)
//   DIFF_REVIEW_SCREENSHOTS   the folder where a test's "ready-for-screenshot:<name> [hover=<css selector>]"
//                             saves <name>.png (hovering over the element first, e.g. for a tooltip)
//   HOST_TEST_TIMEOUT_MS      give up after this long (default 120 000)
//   VERBOSE=1                 also print code-server's and the workbench's own output
//   DIFF_REVIEW_HOST_SANDBOX  a folder kept between launches (else a new temp folder, removed after):
//                             code-server's user data, the browser's profile (where the web
//                             workbench keeps workspace state) and the port (its origin) are reused,
//                             so that the next launch is a reload of the same window
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { format } from 'node:util';
import { CHROMIUM_ARGS } from '../../support/chromium-args.mjs';
import { installPaths } from './code-server-install.mjs';

export const SCREENSHOT_MARKER = 'ready-for-screenshot';
const verbose = process.env.VERBOSE === '1';
const started = Date.now();
const say = (...parts) =>
  console.log(`[code-server-launcher +${((Date.now() - started) / 1000).toFixed(1)}s]`, ...parts);
// The workbench's own chatter, forwarded with the extension host's console: not the tests' output.
const NOISE = /\[AgentHost|\[ChatModelSelection\]|\[AccountPolicyGate\]|open-vsx\.org|ENOTFOUND|^\s+at .*workbench\.js/;

function parseArguments(argv) {
  const developmentPaths = [];
  let testsPath;
  const positional = [];
  for (const argument of argv) {
    const match = /^--(extensionDevelopmentPath|extensionTestsPath)=(.*)$/.exec(argument);
    if (match?.[1] === 'extensionDevelopmentPath') developmentPaths.push(path.resolve(match[2]));
    else if (match) testsPath = path.resolve(match[2]);
    else if (!argument.startsWith('-')) positional.push(path.resolve(argument));
  }
  if (developmentPaths.length === 0 || !testsPath) {
    throw new Error(
      'usage: code-server-launcher.mjs [folder] --extensionDevelopmentPath=<dir> --extensionTestsPath=<file>',
    );
  }
  return { developmentPaths, testsPath, folder: positional[0] };
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** A throwaway home for code-server and Chromium: nothing is written to the real one. */
function makeSandbox() {
  const kept = process.env.DIFF_REVIEW_HOST_SANDBOX || undefined;
  const dir = kept ?? mkdtempSync(path.join(os.tmpdir(), 'diff-review-host-'));
  const home = path.join(dir, 'home');
  const userDir = path.join(dir, 'user');
  for (const sub of [home, path.join(userDir, 'User'), path.join(dir, 'tmp')]) mkdirSync(sub, { recursive: true });
  const settings = path.join(userDir, 'User', 'settings.json');
  // A kept sandbox keeps the settings the tests made (a reload does not reset them).
  if (!existsSync(settings))
    writeFileSync(
      settings,
      JSON.stringify({
        'telemetry.telemetryLevel': 'off',
        'extensions.autoUpdate': false,
        'extensions.autoCheckUpdates': false,
        'chat.disableAIFeatures': true,
        'workbench.startupEditor': 'none',
        'update.mode': 'none',
        'git.enabled': false,
        // VS Code desktop's default; the web workbench saves after a second, which would write the
        // tests' "unsaved" edits to disk while they wait.
        'files.autoSave': 'off',
      }),
    );
  writeFileSync(path.join(dir, 'config.yaml'), '');
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    TMPDIR: path.join(dir, 'tmp'),
  };
  delete env.PASSWORD;
  delete env.HASHED_PASSWORD;
  return { dir, userDir, env, kept: kept !== undefined };
}

async function main() {
  const { developmentPaths, testsPath, folder } = parseArguments(process.argv.slice(2));
  if (Number(process.versions.node.split('.')[0]) < 24)
    throw new Error(
      `code-server needs Node 24; this launcher runs on Node ${process.versions.node}. Put Node 24 first on the PATH.`,
    );
  const install = installPaths(process.env.CODE_SERVER_DIR || undefined);
  if (!existsSync(install.marker))
    throw new Error(
      `code-server is not installed in ${install.dir}: run node test/extension/host/code-server-install.mjs`,
    );
  const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(chromiumPath))
    throw new Error(
      `Chromium was not found at ${chromiumPath}: install it (Debian: apt-get install chromium) or set CHROMIUM.`,
    );
  const timeoutMs = Number(process.env.HOST_TEST_TIMEOUT_MS || 120_000);
  const screenshots = process.env.DIFF_REVIEW_SCREENSHOTS;

  const sandbox = makeSandbox();
  // A kept sandbox's window is served from the same origin each time (its browser storage is per origin).
  const portFile = path.join(sandbox.dir, 'port');
  const port = sandbox.kept && existsSync(portFile) ? Number(readFileSync(portFile, 'utf8')) : await freePort();
  if (sandbox.kept) writeFileSync(portFile, String(port));
  const server = spawn(
    process.execPath,
    [
      install.entry,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--config',
      path.join(sandbox.dir, 'config.yaml'),
      '--user-data-dir',
      sandbox.userDir,
      '--extensions-dir',
      path.join(sandbox.dir, 'extensions'),
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      // Without it the built workbench ignores the test payload in the URL and no test runs.
      '--vscode-option',
      'enable-smoke-test-driver',
    ],
    { env: sandbox.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let serverOutput = '';
  const onServerOutput = (chunk) => {
    serverOutput = (serverOutput + chunk).slice(-20_000);
    if (verbose) process.stdout.write(`[code-server] ${chunk}`);
  };
  server.stdout.on('data', onServerOutput);
  server.stderr.on('data', onServerOutput);

  let browser;
  let page;
  let finished = false;
  const finish = async (code) => {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    // The window closes as a user closes it: the workbench saves its state (a kept sandbox reloads it).
    await page?.close({ runBeforeUnload: true }).catch(() => {});
    if (sandbox.kept) await new Promise((resolve) => setTimeout(resolve, 1000));
    await browser?.close().catch(() => {});
    for (const signal of ['SIGTERM', 'SIGKILL']) {
      try {
        process.kill(-server.pid, signal); // its whole process group: the extension host too
      } catch {
        break; // already gone
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (!sandbox.kept) rmSync(sandbox.dir, { recursive: true, force: true });
    say(`exit code ${code}`);
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void finish(130));
  const deadline = setTimeout(() => {
    say(`TIMEOUT after ${timeoutMs} ms. code-server's last output:\n${serverOutput.slice(-3000)}`);
    void finish(2);
  }, timeoutMs);

  await new Promise((resolve, reject) => {
    const check = () => /HTTP server listening on/.test(serverOutput) && resolve();
    server.stdout.on('data', check);
    server.stderr.on('data', check);
    server.once('exit', (code) =>
      reject(new Error(`code-server exited with ${code} before listening:\n${serverOutput}`)),
    );
  });
  say(`code-server listening on 127.0.0.1:${port}`);

  // playwright-core comes from the same cache folder as code-server.
  const { chromium } = createRequire(path.join(install.dir, 'package.json'))('playwright-core');
  // A browser profile of the sandbox: the web workbench keeps the window's state in it.
  browser = await chromium.launchPersistentContext(path.join(sandbox.dir, 'browser'), {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    env: sandbox.env,
    args: CHROMIUM_ARGS,
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  if (verbose) {
    page.on('console', (message) => console.log('[workbench]', message.text()));
    page.on('pageerror', (error) => console.log('[workbench error]', error.message));
  }
  // The extension host's console, forwarded by the workbench while extension tests run.
  await page.exposeFunction('codeAutomationLog', async (type, args) => {
    const line = format(...(args ?? []));
    const marker = new RegExp(`${SCREENSHOT_MARKER}:([\\w-]+)(?: hover=(.+))?$`).exec(line);
    if (screenshots && marker) {
      const file = path.join(screenshots, `${marker[1]}.png`);
      if (marker[2])
        await page.hover(marker[2]).catch((error) => say(`could not hover ${marker[2]}: ${error.message}`));
      await new Promise((resolve) => setTimeout(resolve, marker[2] ? 1500 : 800)); // let it paint
      mkdirSync(screenshots, { recursive: true });
      await page.screenshot({ path: `${file}.tmp.png` });
      // Renamed into place: the test waits for the file, and must not read half of it.
      await rename(`${file}.tmp.png`, file);
      if (marker[2]) await page.mouse.move(640, 300); // the tooltip goes
      say(`screenshot saved: ${file}`);
      return;
    }
    if (verbose || !NOISE.test(line)) (type === 'error' ? console.error : console.log)(line);
  });
  // Called when the tests' run() settled: 0 when it resolved.
  await page.exposeFunction('codeAutomationExit', (code) => void finish(code));

  const authority = `127.0.0.1:${port}`;
  const remote = (file) => `vscode-remote://${authority}${file}`;
  const payload = [
    ...developmentPaths.map((dir) => ['extensionDevelopmentPath', remote(dir)]),
    ['extensionTestsPath', remote(testsPath)],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  const target = folder ? `folder=${encodeURIComponent(folder)}` : 'ew=true';
  say(`opening the workbench${folder ? ` on ${folder}` : ''}`);
  await page.goto(`http://${authority}/?${target}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(3);
});
