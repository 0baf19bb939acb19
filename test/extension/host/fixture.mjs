// The repository the extension tests open: a bare origin with `main`, and a clone on branch
// `feature` whose one commit adds the files below. Shared by ./run.mjs (which makes it) and the
// tests (which know where the findings are).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const APP_JS = [
  'export function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) sum += item.price;',
  '  debugger;',
  '  return sum;',
  '}',
  '',
].join('\n');
// A key the engine's secret rule fires on (secretlint ignores AWS's documented example key).
export const CONFIG_PY = [
  'region = "eu-west-1"',
  'aws_secret_access_key = "Zq3rT8vK2mN9pX4wL7yB1cF6hJ0dS5gA2eR8tY3u"',
  '',
].join('\n');
/** 0-based lines of the findings. */
export const DEBUGGER_LINE = 3;
export const SECRET_LINE = 1;

/** Makes the repository in a new temp folder; returns the working tree's path and a remover. */
export function createFixtureRepository() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-fixture-'));
  const globalConfig = path.join(dir, 'gitconfig');
  writeFileSync(globalConfig, '[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n');
  const env = { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_GLOBAL: globalConfig, GIT_CONFIG_NOSYSTEM: '1' };
  const git = (cwd, ...args) => execFileSync('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const write = (file, content) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  };
  const origin = path.join(dir, 'shop.git');
  const work = path.join(dir, 'shop');
  git(dir, 'init', '-q', '--bare', '-b', 'main', origin);
  git(dir, 'clone', '-q', origin, work);
  git(work, 'symbolic-ref', 'HEAD', 'refs/heads/main');
  write(path.join(work, 'README.md'), '# shop\n');
  write(path.join(work, 'src', 'app.js'), 'export function total(items) {\n  return 0;\n}\n');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'initial');
  git(work, 'push', '-q', 'origin', 'main');
  git(work, 'remote', 'set-head', 'origin', '--auto');
  git(work, 'checkout', '-q', '-b', 'feature');
  write(path.join(work, 'src', 'app.js'), APP_JS);
  write(path.join(work, 'config.py'), CONFIG_PY);
  write(path.join(work, 'src', 'old.js'), 'debugger;\n');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'totals, config');
  // Committed, then deleted in the working tree: its comment has no file to go to.
  rmSync(path.join(work, 'src', 'old.js'));
  return { work, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
