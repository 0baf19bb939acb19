// Where the repository is, and what to call it: the `repository` field of a review.
import { basename, resolve } from 'node:path';
import { LIMITS } from '../api/limits.ts';
import { GitError, NotAGitRepositoryError } from './errors.ts';
import { runGit, type GitOptions } from './run-git.ts';

/** The top folder of the working tree that contains `cwd`. */
export async function findRepositoryRoot(cwd: string, options: GitOptions = {}): Promise<string> {
  try {
    const { stdout } = await runGit(cwd, ['rev-parse', '--show-toplevel'], options);
    // git prints C:/x on Windows; resolve gives the platform's own form.
    return resolve(stdout.trim());
  } catch (error) {
    if (error instanceof GitError && /must be run in a work tree/i.test(error.stderr)) {
      throw new NotAGitRepositoryError(
        cwd,
        'is not inside a git working tree (it is a bare repository or a .git folder)',
      );
    }
    throw error;
  }
}

/**
 * The repository identifier: the `origin` remote's URL normalised to `host/path`
 * (`git@github.com:acme/widgets.git` → `github.com/acme/widgets`), or the folder name of the
 * working tree when there is no origin.
 */
export async function repositoryIdentifier(root: string, options: GitOptions = {}): Promise<string> {
  const url = await originUrl(root, options);
  return (url === undefined ? undefined : normalizeRemoteUrl(url)) ?? (clean(basename(root)) || 'repository');
}

/** The URL of `origin` (after `url.<base>.insteadOf` rewriting), or undefined when there is none. */
export async function originUrl(root: string, options: GitOptions = {}): Promise<string | undefined> {
  // `git remote get-url` exits 2 when the remote does not exist.
  const { stdout, exitCode } = await runGit(root, ['remote', 'get-url', 'origin'], { ...options, okExitCodes: [0, 2] });
  const url = stdout.trim();
  return exitCode === 0 && url !== '' ? url : undefined;
}

/**
 * Normalises a git remote URL to `host/path`: scheme, credentials, port and `.git` dropped, host
 * lower-cased. So `git@github.com:acme/widgets.git`, `https://user:token@github.com/acme/widgets`
 * and `ssh://git@github.com:22/acme/widgets.git` all give `github.com/acme/widgets`.
 * A local path or file:// URL gives the repository's folder name (`/srv/git/widgets.git` → `widgets`).
 * Undefined when nothing usable is left.
 */
export function normalizeRemoteUrl(remoteUrl: string): string | undefined {
  const url = remoteUrl.trim();
  if (url === '') return undefined;

  let host: string;
  let path: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (parsed.protocol === 'file:') return localName(decode(parsed.pathname));
    // hostname excludes credentials and port; non-special schemes (ssh:) keep their case.
    host = parsed.hostname.toLowerCase();
    path = decode(parsed.pathname);
  } else {
    // scp-like syntax: [user@]host:path. A one-letter "host" is a Windows drive (C:\repo).
    const scp = /^(?:[^@/\\]+@)?([^:/\\]{2,}):(?!\/\/)(.*)$/.exec(url);
    if (!scp) return localName(url);
    host = (scp[1] ?? '').toLowerCase();
    path = scp[2] ?? '';
  }
  const cleanPath = path
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');
  if (host === '') return cleanPath === '' ? undefined : clean(cleanPath);
  return clean(cleanPath === '' ? host : `${host}/${cleanPath}`);
}

function localName(path: string): string | undefined {
  const name = basename(path.replace(/\\/g, '/').replace(/\/+$/, '')).replace(/\.git$/i, '');
  return name === '' ? undefined : clean(name);
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The API refuses control characters and identifiers over 256 characters. */
function clean(identifier: string): string {
  // eslint-disable-next-line no-control-regex
  return identifier.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, LIMITS.repositoryChars);
}
