// Where the reviewed diff comes from: the branch against its base (the default, three-dot, the
// same base discovery as the extension), the index (--staged), the working tree (--uncommitted),
// or a unified diff from a file or stdin (--diff FILE | -).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { text } from 'node:stream/consumers';
import { commitOf, findRepositoryRoot, prepareReview, repositoryIdentifier, stagedDiff } from '../git/index.ts';
import { UsageError } from './exit-codes.ts';

export interface DiffSourceFlags {
  base?: string;
  staged?: boolean;
  uncommitted?: boolean;
  diff?: string;
}

export interface ReviewedDiff {
  diff: string;
  /** The working tree's top folder, when the diff came from git. */
  root?: string;
  /** The API's `repository` (from origin's URL, else the folder name), when the diff came from git. */
  repository?: string;
  /** The commit compared against, when there is one. */
  baseCommit?: string;
  /** What was reviewed, for people: "main...HEAD", "the staged changes", "stdin". */
  label: string;
}

export async function readReviewedDiff(flags: DiffSourceFlags, cwd: string): Promise<ReviewedDiff> {
  if (flags.diff !== undefined)
    return { diff: await readDiffInput(flags.diff, cwd), label: flags.diff === '-' ? 'stdin' : flags.diff };
  if (flags.staged) {
    const root = await findRepositoryRoot(cwd);
    // In a hook of `git commit -a` or `git commit <paths>`, git commits a temporary index it names
    // in GIT_INDEX_FILE (relative to the hook's folder, the top of the working tree).
    const indexFile = process.env['GIT_INDEX_FILE'] ? resolve(cwd, process.env['GIT_INDEX_FILE']) : undefined;
    const [diff, repository, head] = await Promise.all([
      stagedDiff(root, indexFile ? { indexFile } : {}),
      repositoryIdentifier(root),
      commitOf(root, 'HEAD'),
    ]);
    return { diff, root, repository, ...(head ? { baseCommit: head } : {}), label: 'the staged changes' };
  }
  const prepared = await prepareReview({ cwd, baseBranch: flags.base, includeUncommitted: flags.uncommitted ?? false });
  return {
    diff: prepared.diff,
    root: prepared.root,
    repository: prepared.repository,
    baseCommit: prepared.baseCommit,
    label: `${prepared.baseRef}...${flags.uncommitted ? 'the working tree' : 'HEAD'}`,
  };
}

async function readDiffInput(file: string, cwd: string): Promise<string> {
  if (file === '-') return text(process.stdin);
  try {
    return await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `--diff ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a diff file' : (error as Error).message}.`,
    );
  }
}
