// Real git repositories in a temp folder, isolated from the user's and the system's git config.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Sandbox {
  dir: string;
  /** Environment for git: HOME and GIT_CONFIG_GLOBAL inside the sandbox, no system config. */
  env: NodeJS.ProcessEnv;
  /** Path of the global gitconfig used by `env`. */
  globalConfig: string;
  git(cwd: string, ...args: string[]): string;
  write(path: string, content: string): void;
  /** Writes the files and commits them; returns the commit id. */
  commit(cwd: string, message: string, files?: Record<string, string>): string;
  remove(): void;
}

export function createSandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'diff-review-git-'));
  const globalConfig = join(dir, 'gitconfig');
  writeFileSync(globalConfig, '[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    GIT_CONFIG_GLOBAL: globalConfig,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_DATE: '2026-11-21T18:42:00Z',
    GIT_COMMITTER_DATE: '2026-11-21T18:42:00Z',
  };
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const write = (path: string, content: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  };
  return {
    dir,
    env,
    globalConfig,
    git,
    write,
    commit(cwd, message, files = {}) {
      for (const [path, content] of Object.entries(files)) write(join(cwd, path), content);
      git(cwd, 'add', '-A');
      git(cwd, 'commit', '--allow-empty', '-q', '-m', message);
      return git(cwd, 'rev-parse', 'HEAD');
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface ClonedProject {
  /** The bare repository playing "origin". */
  origin: string;
  /** The clone where the user works, on branch `feature`. */
  work: string;
  /** Commit on main where `feature` was branched off. */
  branchPoint: string;
  /** Commit main moved on to after the branch point (fetched into work as origin/<main>). */
  mainTip: string;
}

/**
 * origin (bare, default branch `mainBranch`) ← work (clone; branch `feature` with one commit),
 * and main moves on after the branch point, pushed from a second clone and fetched into work.
 */
export function clonedProject(sandbox: Sandbox, mainBranch = 'main'): ClonedProject {
  const origin = join(sandbox.dir, 'widgets.git');
  sandbox.git(sandbox.dir, 'init', '-q', '--bare', '-b', mainBranch, origin);
  const seed = join(sandbox.dir, 'seed');
  sandbox.git(sandbox.dir, 'clone', '-q', origin, seed);
  sandbox.git(seed, 'symbolic-ref', 'HEAD', `refs/heads/${mainBranch}`);
  sandbox.commit(seed, 'initial', { 'src/app.ts': 'export const a = 1;\n', 'README.md': '# widgets\n' });
  const branchPoint = sandbox.commit(seed, 'second', { 'src/app.ts': 'export const a = 1;\nexport const b = 2;\n' });
  sandbox.git(seed, 'push', '-q', 'origin', mainBranch);

  const work = join(sandbox.dir, 'work');
  sandbox.git(sandbox.dir, 'clone', '-q', origin, work);
  sandbox.git(work, 'checkout', '-q', '-b', 'feature');
  sandbox.commit(work, 'feature work', { 'src/feature.ts': 'export const feature = true;\n' });

  const mainTip = sandbox.commit(seed, 'main moves on', { 'README.md': '# widgets\n\nMain moved on.\n' });
  sandbox.git(seed, 'push', '-q', 'origin', mainBranch);
  sandbox.git(work, 'fetch', '-q', 'origin');
  return { origin, work, branchPoint, mainTip };
}
