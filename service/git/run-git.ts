// Runs git without a shell, with an environment and settings that make its output independent of
// the user's configuration where that matters (see diff.ts for the diff options themselves), and
// that keep a repository's own configuration from making git run commands.
import { execFile, type ExecException } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { GitError, GitNotFoundError, GitOutputTooLargeError, NotAGitRepositoryError } from './errors.ts';
import {
  configEnvironment,
  FILTER_COMMANDS_LISTING,
  filterOverrides,
  honoursOverrides,
  LISTING_CANARY,
} from './filter-drivers.ts';

/** Options every function of the git module accepts. */
export interface GitOptions {
  /** The git executable (e.g. VS Code's `git.path` setting). Default `git`, found on the PATH. */
  git?: string;
  /** Environment for git. Default `process.env` (minus the variables listed in run-git.ts). */
  env?: NodeJS.ProcessEnv;
  /** Kills the running git command. */
  signal?: AbortSignal;
  /**
   * Largest output (stdout) of one git command, in bytes; more fails with GitOutputTooLargeError.
   * Default 64 MiB: diffs can be big, and the API's 1 MB limit is checked by the caller.
   */
  maxBuffer?: number;
}

export interface RunGitOptions extends GitOptions {
  /** Exit codes that are not failures (`git diff --no-index` exits 1 when the files differ). Default [0]. */
  okExitCodes?: readonly number[];
  /**
   * The index file to read instead of the repository's own (GIT_INDEX_FILE, which is otherwise
   * stripped): in a pre-commit hook of `git commit -a` or `git commit <paths>` git names a
   * temporary index there, and that is what the commit records.
   */
  indexFile?: string;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const DEFAULT_MAX_BUFFER = 64 * 1024 * 1024;

/** Settings passed with `-c` to every command: they win over any config file. */
const FIXED_CONFIG = [
  // Non-ASCII and special characters in paths are C-quoted ("\303\251"), git's own default.
  'core.quotepath=true',
  // A blank context line is " " (not ""), as every diff parser expects.
  'diff.suppressBlankEmpty=false',
  // The rest stop a repository's own config from making git run its commands (filter drivers:
  // filter-drivers.ts; external diff and textconv: DIFF_SAFETY; fetches: the environment).
  // The fsmonitor hook runs whenever git reads the index (diff against the working tree, ls-files).
  'core.fsmonitor=false',
  // No hook runs for what we run today; pinned so a command added later cannot start one.
  'core.hooksPath=/dev/null',
  // log and show would run gpg.program to check signatures.
  'log.showSignature=false',
];

/**
 * Added to every `git diff`: diff.external, diff.<driver>.command and .textconv are commands; and
 * to see whether a submodule has uncommitted changes git runs `git status` inside it, under the
 * submodule's own config (its filter drivers). A submodule still shows when its commit changed;
 * a dirty one is no longer marked `-dirty`, which no review reads.
 */
const DIFF_SAFETY = ['--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty'];

interface Subcommand {
  /** Flags put right after the subcommand, which keep it from running a repository's commands. */
  safety: readonly string[];
  /** False: it reads no working-tree file, so no filter driver can run (no need to look for any). */
  readsFiles: boolean;
}

/**
 * The subcommands runGit runs, each with its safety flags; any other is refused, so that one added
 * later is looked at first (what in a repository's config could it make git run?).
 */
const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  diff: { safety: DIFF_SAFETY, readsFiles: true },
  // asks each submodule whether it is dirty, as diff does: the same flag keeps it out
  status: { safety: ['--ignore-submodules=dirty'], readsFiles: true },
  'ls-files': { safety: [], readsFiles: true },
  'rev-parse': { safety: [], readsFiles: false },
  'symbolic-ref': { safety: [], readsFiles: false },
  'merge-base': { safety: [], readsFiles: false },
  'for-each-ref': { safety: [], readsFiles: false },
  remote: { safety: [], readsFiles: false },
  config: { safety: [], readsFiles: false },
  // (diff-review suppressions) a textconv driver is a command; submodules are other repositories
  grep: { safety: ['--no-textconv', '--no-recurse-submodules'], readsFiles: true },
  blame: { safety: ['--no-textconv'], readsFiles: true },
};

/**
 * Variables that would point git elsewhere than `cwd` or change the diff's shape. They can leak in
 * when a tool runs inside a git hook or an editor's terminal.
 */
const STRIPPED_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_PREFIX',
  'GIT_DIFF_OPTS',
  'GIT_EXTERNAL_DIFF',
  'GIT_PAGER',
  'PAGER',
];

const FIXED_ENV = {
  // English messages (we read some of them), no prompts, no index lock for read-only commands.
  LC_ALL: 'C',
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  // Nothing we run fetches, but a partial clone fetches missing objects on demand, through the
  // remote, uploadpack, sshCommand and credential helper the repository's config names. An empty
  // allow-list refuses every transport whatever the config says; git >= 2.45 also skips the fetch.
  GIT_ALLOW_PROTOCOL: '',
  GIT_NO_LAZY_FETCH: '1',
};

export async function runGit(cwd: string, args: readonly string[], options: RunGitOptions = {}): Promise<GitResult> {
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env) };
  for (const name of STRIPPED_ENV) delete env[name];
  Object.assign(env, FIXED_ENV);
  if (options.indexFile !== undefined) env['GIT_INDEX_FILE'] = options.indexFile;
  const [name = '', ...rest] = args;
  const subcommand = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (subcommand === undefined) {
    throw new GitError(
      `runGit does not run "git ${name}": only ${Object.keys(SUBCOMMANDS).join(', ')}. Add it to SUBCOMMANDS in service/git/run-git.ts with the flags that keep it from running a repository's commands.`,
      { args },
    );
  }
  if (subcommand.readsFiles) Object.assign(env, await repositoryFilterOverrides(cwd, env, options));
  return execGit(cwd, [name, ...subcommand.safety, ...rest], env, options);
}

/** The environment that blanks the repository's own filter commands (filter-drivers.ts). */
async function repositoryFilterOverrides(
  cwd: string,
  env: NodeJS.ProcessEnv,
  options: RunGitOptions,
): Promise<NodeJS.ProcessEnv> {
  const listingEnv = { ...env, ...configEnvironment(env, [LISTING_CANARY]) };
  // 1: no filter is configured; 129: an option this git does not know (--show-scope, git < 2.26).
  // the caller's output limit is for its command, not this listing
  const listing = await execGit(cwd, FILTER_COMMANDS_LISTING, listingEnv, {
    ...options,
    okExitCodes: [0, 1, 129],
    maxBuffer: DEFAULT_MAX_BUFFER,
  });
  if (!honoursOverrides(listing.stdout)) {
    throw new GitError(
      "Git 2.31 or newer is needed: older versions cannot be kept from running the commands a repository's configuration names. Update Git (https://git-scm.com/downloads), or set the path to a newer git executable.",
      { args: FILTER_COMMANDS_LISTING, exitCode: listing.exitCode, stderr: listing.stderr },
    );
  }
  return configEnvironment(env, filterOverrides(listing.stdout));
}

/** Runs one git command with the fixed settings; errors explained with the caller's `args`. */
function execGit(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: RunGitOptions,
): Promise<GitResult> {
  const gitPath = options.git ?? 'git';
  const fullArgs = ['--no-pager', ...FIXED_CONFIG.flatMap((setting) => ['-c', setting]), ...args];
  return new Promise<GitResult>((resolve, reject) => {
    execFile(
      gitPath,
      fullArgs,
      {
        cwd,
        env,
        encoding: 'utf8',
        maxBuffer: options.maxBuffer ?? DEFAULT_MAX_BUFFER,
        windowsHide: true,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ stdout, stderr, exitCode: 0 });
          return;
        }
        const exitCode = typeof error.code === 'number' ? error.code : undefined;
        if (exitCode !== undefined && (options.okExitCodes ?? [0]).includes(exitCode)) {
          resolve({ stdout, stderr, exitCode });
          return;
        }
        explain(error, cwd, gitPath, args, stderr, options).then(reject, reject);
      },
    );
  });
}

async function explain(
  error: ExecException,
  cwd: string,
  gitPath: string,
  args: readonly string[],
  stderr: string,
  { signal, maxBuffer = DEFAULT_MAX_BUFFER }: RunGitOptions,
): Promise<Error> {
  if (signal?.aborted) return error;
  if (error.code === 'ENOENT') {
    // spawn reports a missing cwd as ENOENT too; tell the two apart.
    const folder = await stat(cwd).catch(() => undefined);
    if (!folder?.isDirectory())
      return new NotAGitRepositoryError(cwd, 'does not exist or is not a folder', { cause: error });
    return new GitNotFoundError(gitPath, error);
  }
  if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return new GitOutputTooLargeError(args, maxBuffer, error);
  const exitCode = typeof error.code === 'number' ? error.code : undefined;
  const details = { args, stderr, cause: error, ...(exitCode === undefined ? {} : { exitCode }) };
  if (/not a git repository/i.test(stderr)) return new NotAGitRepositoryError(cwd, undefined, details);
  if (/dubious ownership/i.test(stderr)) {
    return new GitError(
      `Git refuses to work in ${cwd} because the folder belongs to another user. If you trust it, run: git config --global --add safe.directory "${cwd}"`,
      details,
    );
  }
  if (/promisor remote|lazy fetch/i.test(stderr)) {
    return new GitError(
      `${cwd} is a partial clone, and file contents this review needs are not downloaded yet. A review never downloads anything (the download would run commands the repository's configuration names). If you trust this repository, run "git diff <base commit> --stat" in it once so git downloads them, then try again.`,
      details,
    );
  }
  const firstLine = stderr.trim().split('\n')[0] ?? '';
  return new GitError(
    `git ${args.join(' ')} failed${exitCode === undefined ? '' : ` (exit ${exitCode})`}${firstLine ? `: ${firstLine}` : ''}`,
    details,
  );
}
