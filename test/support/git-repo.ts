// A throwaway git repository on `main` for tests (the engine's diff fixtures, the review command,
// the labelled secrets): real git, a fixed identity, no CRLF conversion.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

export interface TestRepo {
  dir: string;
  write(path: string, content: string | Buffer): void;
  /** Stages everything and commits. */
  commit(message: string): void;
  cleanup(): void;
}

export function makeRepo(): TestRepo {
  const dir = mkdtempSync(join(tmpdir(), 'diff-review-git-'));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Test');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'core.autocrlf', 'false');
  return {
    dir,
    write(path, content) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    },
    commit(message) {
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', message);
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
