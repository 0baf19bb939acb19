// Where the reviewed diff comes from: the branch against its base (the default, three-dot, the
// same base discovery as the extension), a commit against a base (--head, for pre-commit's
// ranges), the index (--staged), the working tree (--uncommitted), or a unified diff from a file or
// stdin (--diff FILE | -). Every source is read up to the CLI's limit (diff-limit.ts).
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import {
  commitOf,
  diffFromBase,
  findBaseCommit,
  findBaseRef,
  findRepositoryRoot,
  GitOutputTooLargeError,
  type GitOptions,
  prepareReview,
  repositoryIdentifier,
  stagedDiff,
} from '../git/index.ts';
import { DiffTooLargeToReadError, maxDiffBytes } from './diff-limit.ts';
import { UsageError } from './exit-codes.ts';
import { unreadableReason } from './user-file.ts';

export interface DiffSourceFlags {
  base?: string;
  head?: string;
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
  /** The commit reviewed (HEAD, or --head), when the diff came from commits. */
  headCommit?: string;
  /** What was reviewed, for people: "main...HEAD", "the staged changes", "stdin". */
  label: string;
}

/** What is being read, for the progress line: "the diff from git", "stdin". */
export function sourceName(flags: DiffSourceFlags): string {
  if (flags.diff !== undefined) return flags.diff === '-' ? 'stdin' : flags.diff;
  return flags.staged ? 'the staged changes from git' : 'the diff from git';
}

export async function readReviewedDiff(flags: DiffSourceFlags, cwd: string): Promise<ReviewedDiff> {
  if (flags.diff !== undefined)
    return { diff: await readDiffInput(flags.diff, cwd), label: flags.diff === '-' ? 'stdin' : flags.diff };
  const limit = maxDiffBytes();
  // git's output is buffered up to the same limit as a diff read from a file or stdin.
  const git: GitOptions = { maxBuffer: limit };
  try {
    if (flags.staged) return await staged(cwd, git);
    if (flags.head !== undefined) return await commitRange(cwd, flags.base, flags.head, git);
    const prepared = await prepareReview({
      ...git,
      cwd,
      baseBranch: flags.base,
      includeUncommitted: flags.uncommitted ?? false,
    });
    return {
      diff: prepared.diff,
      root: prepared.root,
      repository: prepared.repository,
      baseCommit: prepared.baseCommit,
      ...(flags.uncommitted ? {} : { headCommit: prepared.headCommit }),
      label: `${prepared.baseRef}...${flags.uncommitted ? 'the working tree' : 'HEAD'}`,
    };
  } catch (error) {
    if (error instanceof GitOutputTooLargeError) throw new DiffTooLargeToReadError('The diff git made', limit);
    throw error;
  }
}

async function staged(cwd: string, git: GitOptions): Promise<ReviewedDiff> {
  const root = await findRepositoryRoot(cwd, git);
  // In a hook of `git commit -a` or `git commit <paths>`, git commits a temporary index it names
  // in GIT_INDEX_FILE (relative to the hook's folder, the top of the working tree).
  const indexFile = process.env['GIT_INDEX_FILE'] ? resolve(cwd, process.env['GIT_INDEX_FILE']) : undefined;
  const [diff, repository, head] = await Promise.all([
    stagedDiff(root, indexFile ? { ...git, indexFile } : git),
    repositoryIdentifier(root, git),
    commitOf(root, 'HEAD', git),
  ]);
  return { diff, root, repository, ...(head ? { baseCommit: head } : {}), label: 'the staged changes' };
}

/** `base...head`: what `head` adds since it left `base` (the default base when none is given). */
async function commitRange(
  cwd: string,
  base: string | undefined,
  head: string,
  git: GitOptions,
): Promise<ReviewedDiff> {
  const root = await findRepositoryRoot(cwd, git);
  const headCommit = await commitOf(root, head, git);
  if (headCommit === undefined) throw new UsageError(`--head ${head}: no such branch or commit.`);
  const [repository, baseRef] = await Promise.all([
    repositoryIdentifier(root, git),
    findBaseRef(root, base === undefined ? git : { ...git, baseBranch: base }),
  ]);
  const baseCommit = await findBaseCommit(root, baseRef, { ...git, head: headCommit });
  const { diff } = await diffFromBase(root, baseCommit, { ...git, head: headCommit });
  return { diff, root, repository, baseCommit, headCommit, label: `${baseRef}...${head}` };
}

async function readDiffInput(file: string, cwd: string): Promise<string> {
  const limit = maxDiffBytes();
  if (file === '-') {
    if (process.stdin.isTTY)
      process.stderr.write('diff-review: reading a unified diff from stdin (end it with Ctrl-D, or pipe one in)…\n');
    return readUpTo(process.stdin, limit, 'The diff on stdin');
  }
  try {
    return await readUpTo(createReadStream(resolve(cwd, file)), limit, `--diff ${file}`);
  } catch (error) {
    if (error instanceof DiffTooLargeToReadError) throw error;
    throw new UsageError(`--diff ${file}: ${unreadableReason(error, 'a diff file')}.`);
  }
}

/** A stream's text, refused with DiffTooLargeToReadError once it passes `limit` bytes. */
async function readUpTo(stream: AsyncIterable<Buffer | string>, limit: number, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > limit) throw new DiffTooLargeToReadError(what, limit);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
