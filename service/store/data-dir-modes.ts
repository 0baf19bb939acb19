// A data dir holds diffs (which may hold secrets) and token hashes: only its owner may read it.
// Every file the service writes is 0600 and every folder it makes 0700, but mkdir leaves a folder
// that is already there as it is (a --data-dir the user made at 0755, or one an older version
// made under the umask), so on open the data dir and its folders are made 0700, with a warning.
// A folder that is shared by nature is never changed, only named in a warning: one with the sticky
// bit (/tmp), the home folder, or anything reached through a symbolic link.
import { chmod, lstat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { IDEMPOTENCY_DIR } from './idempotency-log.ts';
import { ARCHIVE_DIR } from './review-archive.ts';
import { DIFFS_DIR, RESULTS_DIR } from './review-files.ts';
import type { StoreLog } from './store-log.ts';

const FOLDERS = ['', DIFFS_DIR, RESULTS_DIR, ARCHIVE_DIR, IDEMPOTENCY_DIR];

/** Makes the data dir and those of its folders that exist 0700; says which were open to others. */
export async function keepDataDirPrivate(dataDir: string, log: StoreLog): Promise<void> {
  if (process.platform === 'win32') return; // no such modes: a Windows folder's ACL is inherited from its parent
  const tightened: string[] = [];
  for (const folder of FOLDERS) {
    const at = path.join(dataDir, folder);
    const found = await lstat(at).catch(() => undefined);
    if (!found || (found.mode & 0o077) === 0) continue;
    if (found.isSymbolicLink() || (found.mode & 0o1000) !== 0 || path.resolve(at) === homedir()) {
      log.warn(
        { folder: at },
        'the data dir is a shared folder (a link, /tmp-like or the home folder) that others may read: it is left as it is; choose a folder of its own with --data-dir',
      );
      continue;
    }
    try {
      await chmod(at, 0o700);
      tightened.push(`${folder || '.'} (was ${(found.mode & 0o777).toString(8)})`);
    } catch (error) {
      log.warn(
        { folder: at, err: (error as Error).message },
        'a data-dir folder others may read could not be made private (0700): change its mode, or its owner',
      );
    }
  }
  if (tightened.length > 0)
    log.warn({ dataDir, folders: tightened }, 'data-dir folders others could read were made private (0700)');
}
