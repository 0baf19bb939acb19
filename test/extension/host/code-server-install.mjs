#!/usr/bin/env node
// Installs code-server (VS Code 1.139's server with its real Node extension host) and
// playwright-core into a cache folder, outside the project's dependencies. Idempotent: a complete
// install is left alone. See ../../../../shared/TESTING.md ("VS Code extension").
//
//   node test/extension/host/code-server-install.mjs   # prints the entry point's path
//
// Needs Node 24 (code-server's native modules are built for it) and, on Debian, `libkrb5-dev`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';

/** Where code-server is cached: $DIFF_REVIEW_CACHE or $XDG_CACHE_HOME/diff-review or ~/.cache/diff-review. */
export function cacheDir() {
  const base =
    process.env.DIFF_REVIEW_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'diff-review');
  return path.join(base, `code-server-${CODE_SERVER_VERSION}`);
}

/** Paths inside an install (they exist only once it is complete). */
export function installPaths(dir = cacheDir()) {
  return {
    dir,
    entry: path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    playwright: path.join(dir, 'node_modules', 'playwright-core'),
    // Written last: a half-finished install (killed, out of disk) never counts as installed.
    marker: path.join(dir, '.complete'),
  };
}

export const isInstalled = (dir = cacheDir()) => existsSync(installPaths(dir).marker);

/** Installs when needed; returns the paths. Throws with npm's output when the install fails. */
export function installCodeServer({ dir = cacheDir(), log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const paths = installPaths(dir);
  if (existsSync(paths.marker)) return paths;
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24)
    throw new Error(
      `code-server ${CODE_SERVER_VERSION} needs Node 24 to install and run; this is Node ${process.versions.node}.`,
    );

  // Install into a fresh sibling folder, then move it into place: never a mixed install.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const nodeBin = path.dirname(process.execPath);
  const nodeDir = path.dirname(nodeBin);
  const env = { ...process.env, PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}` };
  // Native modules (kerberos, node-pty …) are built against this very Node's headers.
  if (existsSync(path.join(nodeDir, 'include', 'node'))) env.npm_config_nodedir = nodeDir;
  const npmCli = path.join(nodeDir, 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  const [command, prefixArgs] = existsSync(npmCli) ? [process.execPath, [npmCli]] : ['npm', []];
  log(
    `Installing code-server ${CODE_SERVER_VERSION} and playwright-core into ${dir} (a few minutes on a cold cache) …`,
  );
  const started = Date.now();
  const result = spawnSync(
    command,
    [
      ...prefixArgs,
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '--prefix',
      staging,
      `code-server@${CODE_SERVER_VERSION}`,
      'playwright-core',
    ],
    { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0 || !existsSync(installPaths(staging).entry)) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `Installing code-server failed (exit ${result.status ?? result.signal}). On Debian/Ubuntu install "libkrb5-dev" first.\n${(result.stderr || result.error?.message || '').slice(-4000)}`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  writeFileSync(paths.marker, `${new Date().toISOString()}\n`);
  log(`code-server installed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  return paths;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(installCodeServer().entry);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
