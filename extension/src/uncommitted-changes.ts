// Whether a repository has uncommitted changes: what the "nothing to review" message may offer.
import { runGit } from '../../service/git/index.ts';
import { gitPath } from './settings.ts';

/** Staged or unstaged changes to tracked files (the review leaves untracked files out). */
export async function hasUncommittedChanges(root: string): Promise<boolean> {
  try {
    const status = await runGit(root, ['status', '--porcelain', '--untracked-files=no'], {
      git: gitPath(),
      signal: AbortSignal.timeout(10_000),
    });
    return status.stdout.trim() !== '';
  } catch {
    return false; // only an offer: without it, the message stays true
  }
}
