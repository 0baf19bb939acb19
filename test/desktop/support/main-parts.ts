// Main-process parts for tests under Node, wired as main/desktop-app.ts wires them but with the
// OS left out: a connection that only connects to a service elsewhere, and the IPC handlers
// with an inert folder picker, save dialog, clipboard and browser unless a test gives its own.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '../../../desktop/main/connection.ts';
import { CredentialStore } from '../../../desktop/main/credential-store.ts';
import { FolderReviews } from '../../../desktop/main/folder-reviews.ts';
import { createIpcHandlers, type IpcHandlerDependencies } from '../../../desktop/main/ipc-handlers.ts';
import type { ConnectionState } from '../../../desktop/shared/ipc-contract.ts';
import { ReviewInputs } from '../../../desktop/main/review-inputs.ts';
import { fakeSafeStorage } from './fake-safe-storage.ts';

/** A connection with its credentials in a new temp folder (fake safeStorage) and no built-in service. */
export function remoteConnection(onChange: (state: ConnectionState) => void = () => {}): Connection {
  return new Connection({
    credentials: new CredentialStore({
      file: path.join(mkdtempSync(path.join(os.tmpdir(), 'diff-review-conn-')), 'connection.json'),
      safeStorage: fakeSafeStorage(),
    }),
    startBuiltIn: async () => {
      throw new Error('not in this test');
    },
    onChange,
    log: () => {},
  });
}

/** main's IPC handlers over `connection` and `watcher`; the OS parts do nothing unless given. */
export function ipcHandlers(
  deps: Pick<IpcHandlerDependencies, 'connection' | 'watcher'> & Partial<IpcHandlerDependencies>,
) {
  return createIpcHandlers({
    chooseFolder: async () => undefined,
    writeClipboard: () => {},
    openExternal: async () => {},
    folderReviews: new FolderReviews(),
    reviewInputs: new ReviewInputs(),
    chooseSaveFile: async () => undefined,
    ...deps,
  });
}
