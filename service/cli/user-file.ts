// Files a user names (a diff, a project config, a baseline): one wording for why one cannot be read.
import { readFile } from 'node:fs/promises';
import { UsageError } from './exit-codes.ts';

/** Why a file could not be read: "no such file", "is a folder, not <kind>", or the system's message. */
export function unreadableReason(error: unknown, kind: string, whenMissing = ''): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `no such file${whenMissing}`;
  if (code === 'EISDIR') return `is a folder, not ${kind}`;
  return (error as Error).message;
}

/** A file's text; `<name>: <reason>.` as a usage error (or the caller's kind of one) when it cannot be read. */
export async function readUserFile(
  file: string,
  name: string,
  kind: string,
  options: { whenMissing?: string; error?: new (message: string) => UsageError } = {},
): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new (options.error ?? UsageError)(`${name}: ${unreadableReason(error, kind, options.whenMissing)}.`);
  }
}
