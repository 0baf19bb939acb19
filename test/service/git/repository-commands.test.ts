// A repository's own configuration (.git/config, .git/info/attributes, hooks) can name commands
// that git runs. Reviewing a repository must never run them: every one below appends its name to
// a marker file, and every read-only operation of service/git runs against that repository.
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  diffFromBase,
  findBaseCommit,
  findBaseRef,
  findRepositoryRoot,
  GitError,
  headCommit,
  listUntrackedFiles,
  prepareReview,
  repositoryIdentifier,
  runGit,
  STABLE_DIFF_OPTIONS,
} from '../../../service/git/index.ts';
import { clonedProject, createSandbox, type Sandbox } from './repo-fixture.ts';

let sandbox: Sandbox;
let marker: string;
let evil: string;
beforeEach(() => {
  sandbox = createSandbox();
  marker = join(sandbox.dir, 'marker');
  evil = join(sandbox.dir, 'evil.sh');
  // Records who ran it; prints nothing, so filters and textconv would empty the file.
  writeFileSync(evil, `#!/bin/sh\necho "$1" >> '${marker}'\n`);
  chmodSync(evil, 0o755);
});
afterEach(() => sandbox.remove());

/** What ran, one name a line, or '' when nothing did. */
const ran = () => (existsSync(marker) ? readFileSync(marker, 'utf8') : '');

const HOOKS = [
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'post-index-change',
];

/** Sets every command a repository's config can name for read-only git commands to `evil <name>`. */
function armRepository(repo: string, gitDir = join(repo, '.git')): void {
  const command = (name: string) => `${evil} ${name}`;
  const set = (key: string, value: string) => sandbox.git(repo, 'config', key, value);
  set('core.fsmonitor', command('core.fsmonitor'));
  set('core.pager', command('core.pager'));
  set('pager.diff', command('pager.diff'));
  set('diff.external', command('diff.external'));
  set('diff.evildiff.command', command('diff.driver.command'));
  set('diff.evildiff.textconv', command('diff.driver.textconv'));
  set('filter.evilclean.clean', command('filter.clean'));
  set('filter.evilclean.smudge', command('filter.smudge'));
  set('filter.evilclean.required', 'true');
  set('filter.evilprocess.process', command('filter.process'));
  set('core.sshCommand', command('core.sshCommand'));
  set('core.askPass', command('core.askPass'));
  set('credential.helper', `!${command('credential.helper')}`);
  set('core.alternateRefsCommand', command('core.alternateRefsCommand'));
  set('log.showSignature', 'true');
  set('gpg.program', command('gpg.program'));
  set('remote.origin.uploadpack', command('remote.uploadpack'));
  const hooks = join(sandbox.dir, 'evil-hooks');
  mkdirSync(hooks, { recursive: true });
  for (const hook of HOOKS) {
    writeFileSync(join(hooks, hook), `#!/bin/sh\n${command(`hook:${hook}`)}\n`);
    chmodSync(join(hooks, hook), 0o755);
  }
  set('core.hooksPath', hooks);
  // Attributes the repository keeps outside its history, as a downloaded repository could.
  mkdirSync(join(gitDir, 'info'), { recursive: true });
  writeFileSync(
    join(gitDir, 'info/attributes'),
    '*.ts diff=evildiff filter=evilclean\n*.md diff=evildiff filter=evilprocess\n',
  );
}

/**
 * Adds `origin` to `work` as the submodule vendor/widgets, arms it like the repository and changes
 * two of its files; clears the marker.
 */
function addArmedSubmodule(work: string, origin: string) {
  sandbox.git(work, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', origin, 'vendor/widgets');
  const submodule = join(work, 'vendor/widgets');
  armRepository(submodule, join(work, '.git/modules/vendor/widgets'));
  // Same sizes as before, so git must read the files (through their filters) to see the change.
  writeFileSync(join(submodule, 'README.md'), '# WIDGETS\n\nMain moved on.\n');
  writeFileSync(join(submodule, 'src/app.ts'), 'export const A = 1;\nexport const B = 2;\n');
  writeFileSync(marker, '');
}

describe("a repository's configuration cannot make git run commands", () => {
  it('runs none during base discovery, the three-dot, uncommitted, untracked and staged diffs', async () => {
    const { work, branchPoint } = clonedProject(sandbox);
    armRepository(work);
    // Changes in the working tree (unstaged, staged, untracked) of files the filters apply to.
    writeFileSync(join(work, 'src/feature.ts'), 'export const feature = true;\nexport const unstaged = 1;\n');
    writeFileSync(join(work, 'README.md'), '# widgets\n\nStaged.\n');
    sandbox.git(work, '-c', 'core.hooksPath=/dev/null', '-c', 'filter.evilprocess.process=', 'add', 'README.md');
    writeFileSync(join(work, 'notes.ts'), 'export const untracked = 1;\n');
    writeFileSync(marker, '');
    const git = { env: sandbox.env };

    try {
      const root = await findRepositoryRoot(join(work, 'src'), git);
      expect(await repositoryIdentifier(root, git)).toBe('widgets');
      const baseRef = await findBaseRef(root, git);
      const head = await headCommit(root, git);
      expect(await findBaseCommit(root, baseRef, { ...git, head })).toBe(branchPoint);
      const committed = await diffFromBase(root, branchPoint, git);
      expect(committed.diff).toContain('+export const feature = true;');
      const uncommitted = await diffFromBase(root, branchPoint, {
        ...git,
        includeUncommitted: true,
        includeUntracked: true,
      });
      expect(uncommitted.diff).toContain('+export const unstaged = 1;');
      expect(uncommitted.diff).toContain('+Staged.');
      expect(uncommitted.diff).toContain('+export const untracked = 1;');
      expect(await listUntrackedFiles(root, git)).toEqual(['notes.ts']);
      const staged = await runGit(root, ['diff', '--cached', ...STABLE_DIFF_OPTIONS, branchPoint, '--'], git);
      expect(staged.stdout).toContain('+Staged.');
      expect(staged.stdout).not.toContain('unstaged');
      const prepared = await prepareReview({ ...git, cwd: work, includeUncommitted: true, includeUntracked: true });
      expect(prepared.diff).toBe(uncommitted.diff);
    } finally {
      // Checked first, also when git failed: a command that ran is the defect.
      expect(ran()).toBe('');
    }

    // The repository is really armed: plain git runs its commands.
    sandbox.git(work, '-c', 'filter.evilprocess.process=', 'diff', branchPoint);
    sandbox.git(work, '-c', 'filter.evilprocess.process=', 'diff', '--no-ext-diff', branchPoint);
    expect(ran().split('\n')).toEqual(
      expect.arrayContaining(['core.fsmonitor', 'filter.clean', 'diff.driver.command', 'diff.driver.textconv']),
    );
  });

  it('keeps the filters the user configured (as Git LFS is), also when the repository redefines them', async () => {
    const { work, branchPoint } = clonedProject(sandbox);
    appendFileSync(sandbox.globalConfig, '[filter "upper"]\n\tclean = tr a-z A-Z\n\trequired = true\n');
    sandbox.git(work, 'config', 'filter.upper.clean', `${evil} filter.clean`);
    writeFileSync(join(work, '.git/info/attributes'), '*.txt filter=upper\n');
    writeFileSync(join(work, 'notes.txt'), 'hello\n');
    sandbox.git(work, '-c', 'filter.upper.clean=tr a-z A-Z', 'add', 'notes.txt');
    writeFileSync(marker, '');

    const { diff } = await diffFromBase(work, branchPoint, { env: sandbox.env, includeUncommitted: true });
    expect(diff).toContain('+HELLO');
    expect(ran()).toBe('');
  });

  it('runs none in a submodule either', async () => {
    const { work, origin, branchPoint } = clonedProject(sandbox);
    addArmedSubmodule(work, origin);

    try {
      const { diff } = await diffFromBase(work, branchPoint, { env: sandbox.env, includeUncommitted: true });
      expect(diff).toContain('+Subproject commit');
    } finally {
      expect(ran()).toBe('');
    }

    // Plain git asks the submodule whether it is modified, and the submodule runs its commands.
    sandbox.git(work, '-c', 'filter.evilprocess.process=', 'diff', branchPoint);
    expect(ran().split('\n')).toEqual(
      expect.arrayContaining(['core.fsmonitor', 'filter.clean', 'hook:post-index-change']),
    );
  });

  it("runs none through git status (the extension's check for uncommitted changes), in a submodule either", async () => {
    const { work, origin } = clonedProject(sandbox);
    addArmedSubmodule(work, origin);

    try {
      const status = await runGit(work, ['status', '--porcelain', '--untracked-files=no'], { env: sandbox.env });
      expect(status.stdout).toMatch(/^A {2}\.gitmodules$/m); // it still answers
    } finally {
      expect(ran()).toBe('');
    }

    // Plain git status asks the submodule whether it is modified, and the submodule runs its commands.
    sandbox.git(work, '-c', 'filter.evilprocess.process=', 'status', '--porcelain');
    expect(ran().split('\n')).toEqual(expect.arrayContaining(['core.fsmonitor', 'filter.clean']));
  });

  it('runs only the subcommands it knows the safety of; any other is refused before git starts', async () => {
    const { work } = clonedProject(sandbox);
    armRepository(work);
    writeFileSync(marker, '');
    await expect(runGit(work, ['log', '-p', '-1'], { env: sandbox.env })).rejects.toThrow(
      /runGit does not run "git log": only diff, status, /,
    );
    await expect(runGit(work, ['constructor'], { env: sandbox.env })).rejects.toBeInstanceOf(GitError);
    expect(ran()).toBe('');
  });

  it('fetches nothing (a partial clone could fetch through the remote it names) and says why it failed', async () => {
    const { origin, branchPoint } = clonedProject(sandbox);
    sandbox.git(origin, 'config', 'uploadpack.allowFilter', 'true');
    // A blobless clone: the branch point's README is not present until something fetches it.
    const partial = join(sandbox.dir, 'partial');
    sandbox.git(sandbox.dir, 'clone', '-q', '--filter=blob:none', `file://${origin}`, partial);
    sandbox.git(partial, 'checkout', '-q', '-b', 'feature');
    armRepository(partial);
    writeFileSync(marker, '');

    const failure = await diffFromBase(partial, branchPoint, { env: sandbox.env }).catch((error: unknown) => error);
    expect(ran()).toBe('');
    expect(failure).toBeInstanceOf(GitError);
    expect((failure as GitError).message).toMatch(/partial clone/);
  });
});

describe('a git too old to honour the overrides', () => {
  it('is refused, saying which version is needed, before it can run anything', async () => {
    const { work, branchPoint } = clonedProject(sandbox);
    armRepository(work);
    writeFileSync(join(work, 'src/feature.ts'), 'export const FEATURE = true;\n');
    // git before 2.31 ignores GIT_CONFIG_COUNT, the way this wrapper does.
    const oldGit = join(sandbox.dir, 'old-git.sh');
    writeFileSync(oldGit, '#!/bin/sh\nunset GIT_CONFIG_COUNT\nexec git "$@"\n');
    chmodSync(oldGit, 0o755);
    writeFileSync(marker, '');

    const failure = await diffFromBase(work, branchPoint, {
      env: sandbox.env,
      git: oldGit,
      includeUncommitted: true,
    }).catch((error: unknown) => error);
    expect(ran()).toBe('');
    expect(failure).toBeInstanceOf(GitError);
    expect((failure as GitError).message).toMatch(/Git 2\.31 or newer is needed/);
    // Commands that read no working-tree file still work.
    expect(await findBaseCommit(work, 'origin/main', { env: sandbox.env, git: oldGit })).toBe(branchPoint);
  });
});
