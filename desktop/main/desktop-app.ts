// Wires the main process together without Electron: the credential store, the connection, the
// live-update watcher and the IPC router. main/index.ts gives it Electron's pieces; the browser
// tests give it a page and fakes of the OS parts, and run this very code.
import path from 'node:path';
import { ApiError } from '../../service/client/index.ts';
import type { IpcEvent, IpcEvents } from '../shared/ipc-contract.ts';
import { Connection } from './connection.ts';
import { CredentialStore, type SafeStorageLike } from './credential-store.ts';
import { FolderReviews } from './folder-reviews.ts';
import { createIpcHandlers } from './ipc-handlers.ts';
import { createIpcRouter, type IpcRouter } from './ipc-router.ts';
import { ReviewInputs } from './review-inputs.ts';
import { ReviewWatcher } from './review-watcher.ts';
import type { BuiltInService } from './service-launcher.ts';

export type Logger = (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;

export interface DesktopAppOptions {
  /** Electron's app.getPath('userData'). */
  userDataDir: string;
  /** The URL of renderer/index.html (app://renderer/index.html): the only page whose IPC requests are answered. */
  rendererUrl: string;
  safeStorage: SafeStorageLike;
  startBuiltIn: () => Promise<BuiltInService>;
  /** Sends a notification to the window (webContents.send). */
  send: <E extends IpcEvent>(event: E, payload: IpcEvents[E]) => void;
  chooseFolder: () => Promise<string | undefined>;
  writeClipboard: (text: string) => void;
  /** The OS save dialog: where to save a file named `defaultName`; undefined when cancelled. */
  chooseSaveFile: (defaultName: string) => Promise<string | undefined>;
  /** Electron's shell.openExternal (for vscode://file/… links only). */
  openExternal: (url: string) => Promise<void>;
  log: Logger;
  /** Test knobs for the connection's timers. */
  timing?: { healthIntervalMs?: number; firstRetryMs?: number; maxRetryMs?: number; requestTimeoutMs?: number };
}

export interface DesktopApp {
  router: IpcRouter;
  connection: Connection;
  watcher: ReviewWatcher;
  /** Reconnects to the saved choice (or shows setup). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export const SETTINGS_FILE = 'connection.json';

export function createDesktopApp(options: DesktopAppOptions): DesktopApp {
  const credentials = new CredentialStore({
    file: path.join(options.userDataDir, SETTINGS_FILE),
    safeStorage: options.safeStorage,
  });
  let watcher: ReviewWatcher | undefined;
  const connection = new Connection({
    credentials,
    startBuiltIn: options.startBuiltIn,
    log: options.log,
    onChange: (state) => {
      if (state.phase === 'setup') watcher?.stopAll();
      if (state.phase === 'connected') watcher?.resume();
      options.send('connection:changed', state);
    },
    ...options.timing,
  });
  const folderReviews = new FolderReviews();
  watcher = new ReviewWatcher({
    client: () => connection.reviewClient(),
    notify: (job) => options.send('review:updated', folderReviews.configure(job)),
    onError: (error) => {
      // A 401: the app's review token was revoked (from the Tokens tab, say). A request through
      // withReviews makes a new one; then the broken-off jobs are followed again with it.
      if (error instanceof ApiError && error.status === 401) {
        void connection
          .withReviews((client) => client.listReviews({ limit: 1 }))
          .then(
            () => watcher?.resume(),
            (failure: unknown) => options.log('warn', 'live updates stopped', { err: String(failure) }),
          );
      } else connection.reportFailure(error);
    },
  });
  const handlers = createIpcHandlers({
    connection,
    watcher,
    chooseFolder: options.chooseFolder,
    writeClipboard: options.writeClipboard,
    openExternal: options.openExternal,
    chooseSaveFile: options.chooseSaveFile,
    folderReviews,
    reviewInputs: new ReviewInputs(),
  });
  const router = createIpcRouter({
    handlers,
    rendererUrl: options.rendererUrl,
    log: (level, message, details) => options.log(level, message, details),
  });
  return {
    router,
    connection,
    watcher,
    start: async () => {
      await connection
        .start()
        .catch((error: unknown) => options.log('error', 'could not connect on start', { err: String(error) }));
    },
    close: async () => {
      watcher.stopAll();
      await connection.close();
    },
  };
}
