// Where a repository's HEAD is: its branch (none when detached) and commit, read with one git call.
// No vscode import: tested under vitest against real repositories.
import path from 'node:path';
import { runGit } from '../../service/git/index.ts';

export interface GitHead {
  /** Top folder of the working tree (the platform's own form, as PreparedReview.root). */
  root: string;
  /** The repository's git folder (absolute): HEAD is a file in it. */
  gitDir: string;
  /** The branch checked out; undefined when HEAD is detached. */
  branch: string | undefined;
  commit: string;
}

/** HEAD of the repository around `cwd`; undefined outside one, or before its first commit. */
export async function readHead(
  cwd: string,
  options: { git?: string; timeoutMs?: number } = {},
): Promise<GitHead | undefined> {
  try {
    const { stdout } = await runGit(
      cwd,
      ['rev-parse', '--show-toplevel', '--absolute-git-dir', 'HEAD', '--abbrev-ref', 'HEAD'],
      { git: options.git, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) },
    );
    const [root, gitDir, commit, ref] = stdout.split('\n').map((line) => line.trim());
    if (!root || !gitDir || !commit || !/^[0-9a-f]{7,64}$/.test(commit)) return undefined;
    // --abbrev-ref says HEAD when no branch is checked out.
    return {
      root: path.resolve(root),
      gitDir: path.resolve(gitDir),
      commit,
      branch: ref && ref !== 'HEAD' ? ref : undefined,
    };
  } catch {
    return undefined;
  }
}

/** How a review's place is named to the user: the branch, or the commit when HEAD was detached. */
export const headLabel = (branch: string | undefined, commit: string): string =>
  branch ?? `${commit.slice(0, 7)} (detached)`;
