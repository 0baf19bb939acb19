// Runs git without a shell, with an environment and settings that make its output independent of
// the user's configuration where that matters (see diff.ts for the diff options themselves).
import { execFile, type ExecException } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { GitError, GitNotFoundError, NotAGitRepositoryError } from './errors.ts';

/** Options every function of the git module accepts. */
export interface GitOptions {
  /** The git executable (e.g. VS Code's `git.path` setting). Default `git`, found on the PATH. */
  git?: string;
  /** Environment for git. Default `process.env` (minus the variables listed in run-git.ts). */
  env?: NodeJS.ProcessEnv;
  /** Kills the running git command. */
  signal?: AbortSignal;
}

export interface RunGitOptions extends GitOptions {
  /** Exit codes that are not failures (`git diff --no-index` exits 1 when the files differ). Default [0]. */
  okExitCodes?: readonly number[];
  /** Largest stdout accepted. Default 64 MiB: diffs can be big, and the API's 1 MB limit is checked by the caller. */
  maxBuffer?: number;
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
];

/**
 * Variables that would point git elsewhere than `cwd` or change the diff's shape. They can leak in
 * when a tool runs inside a git hook or an editor's terminal.
 */
const STRIPPED_ENV = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX', 'GIT_DIFF_OPTS', 'GIT_EXTERNAL_DIFF', 'GIT_PAGER', 'PAGER'];

export async function runGit(cwd: string, args: readonly string[], options: RunGitOptions = {}): Promise<GitResult> {
  const gitPath = options.git ?? 'git';
  const fullArgs = ['--no-pager', ...FIXED_CONFIG.flatMap((setting) => ['-c', setting]), ...args];
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env) };
  for (const name of STRIPPED_ENV) delete env[name];
  // English messages (we read some of them), no prompts, no index lock for read-only commands.
  Object.assign(env, { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' });

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
        explain(error, cwd, gitPath, args, stderr, options.signal).then(reject, reject);
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
  signal: AbortSignal | undefined,
): Promise<Error> {
  if (signal?.aborted) return error;
  if (error.code === 'ENOENT') {
    // spawn reports a missing cwd as ENOENT too; tell the two apart.
    const folder = await stat(cwd).catch(() => undefined);
    if (!folder?.isDirectory()) return new NotAGitRepositoryError(cwd, 'does not exist or is not a folder', { cause: error });
    return new GitNotFoundError(gitPath, error);
  }
  if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
    return new GitError(`The output of "git ${args.join(' ')}" is too large to handle.`, { args, cause: error });
  }
  const exitCode = typeof error.code === 'number' ? error.code : undefined;
  const details = { args, stderr, cause: error, ...(exitCode === undefined ? {} : { exitCode }) };
  if (/not a git repository/i.test(stderr)) return new NotAGitRepositoryError(cwd, undefined, details);
  if (/dubious ownership/i.test(stderr)) {
    return new GitError(
      `Git refuses to work in ${cwd} because the folder belongs to another user. If you trust it, run: git config --global --add safe.directory "${cwd}"`,
      details,
    );
  }
  const firstLine = stderr.trim().split('\n')[0] ?? '';
  return new GitError(`git ${args.join(' ')} failed${exitCode === undefined ? '' : ` (exit ${exitCode})`}${firstLine ? `: ${firstLine}` : ''}`, details);
}
