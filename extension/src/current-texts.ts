// The current text of the files a review commented on: an editor's when open (unsaved edits
// included), else the disk's. What comment-mapping places the comments on.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { resolveInRepository, splitLines } from './comment-mapping.ts';
import type { CurrentText } from './line-mapping.ts';

/**
 * The current text of each commented file: the editor's when it is open (with the disk's beside it
 * when they differ), else the disk's; undefined when gone.
 */
export async function readTexts(
  root: string,
  filePaths: readonly string[],
): Promise<Map<string, CurrentText | undefined>> {
  const texts = new Map<string, CurrentText | undefined>();
  const files = new Set(
    filePaths.map((filePath) => resolveInRepository(root, filePath)).filter((file) => file !== undefined),
  );
  await Promise.all(
    [...files].map(async (file) => {
      const open = vscode.workspace.textDocuments.find(
        (document) => document.uri.scheme === 'file' && document.uri.fsPath === file,
      );
      const disk = await readFile(file, 'utf8').catch(() => undefined);
      if (!open) {
        texts.set(file, disk === undefined ? undefined : { lines: splitLines(disk) });
        return;
      }
      // An open file is tracked in its editor's coordinates. Its text differs from the disk's with
      // unsaved edits, or for a moment after the file changed on disk: comments go through that too.
      const text = open.getText();
      texts.set(
        file,
        disk !== undefined && disk !== text
          ? { lines: splitLines(text), diskLines: splitLines(disk) }
          : { lines: splitLines(text) },
      );
    }),
  );
  return texts;
}
