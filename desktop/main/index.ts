// The Electron main process entry: the only main-process file that imports electron. It hands
// Electron's pieces to createDesktopApp (desktop-app.ts) and applies the window's security.
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  type MenuItemConstructorOptions,
  protocol,
  safeStorage,
  session,
  shell,
  utilityProcess,
} from 'electron';
import path from 'node:path';
import { IPC_CHANNELS } from '../shared/ipc-contract.ts';
import { appMenuTemplate, type MenuItemSpec } from './app-menu.ts';
import { APP_SCHEME, appResponse, RENDERER_URL } from './app-protocol.ts';
import { createDesktopApp, type Logger } from './desktop-app.ts';
import { builtInFromProcess } from './service-process.ts';
import { isExternalLink, mainWindowOptions, mayNavigate } from './window-security.ts';

app.setName('Diff Review');
// The page comes from app://renderer/ (main/app-protocol.ts), not file://: a standard, secure
// scheme, so 'self' in its CSP means the app's own files only. Registered before 'ready'.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true } }]);
const log: Logger = (level, message, details) => {
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...details });
  if (level === 'info') console.log(line);
  else console.error(line);
};

// One window per user: a second start focuses the first instead of fighting over the data dir.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void main();
}

async function main(): Promise<void> {
  await app.whenReady();
  const rendererDir = path.join(__dirname, 'renderer');
  protocol.handle(APP_SCHEME, (request) => appResponse(request.url, rendererDir, request.method));
  const rendererUrl = RENDERER_URL;
  let window: BrowserWindow | undefined;

  // The built-in service runs in its own process (a separate bundle), started when chosen: a
  // stuck or crashing review cannot freeze the window. If it dies, it is started again.
  const startBuiltIn = () =>
    builtInFromProcess(
      utilityProcess.fork(path.join(__dirname, 'service-launcher.js'), [], { serviceName: 'Diff Review service' }),
      app.getPath('userData'),
      (code) => {
        log('error', 'the built-in service process ended', { code });
        void desktop.connection.builtInExited();
      },
    );
  const desktop = createDesktopApp({
    userDataDir: app.getPath('userData'),
    rendererUrl,
    safeStorage,
    startBuiltIn,
    send: (event, payload) => {
      if (window && !window.isDestroyed()) window.webContents.send(event, payload);
    },
    chooseFolder: async () => {
      const options = { title: 'Choose a git repository', properties: ['openDirectory' as const] };
      const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return result.canceled ? undefined : result.filePaths[0];
    },
    chooseSaveFile: async (defaultName) => {
      const options = {
        title: 'Save the SARIF log',
        defaultPath: path.join(app.getPath('documents'), defaultName),
        filters: [{ name: 'SARIF', extensions: ['sarif', 'json'] }],
      };
      const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
      return result.canceled ? undefined : result.filePath;
    },
    writeClipboard: (text) => clipboard.writeText(text),
    openExternal: (url) => shell.openExternal(url),
    log,
  });

  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(channel, (event, ...args: unknown[]) => desktop.router.dispatch(channel, event.senderFrame, args));
  }

  // No permission (camera, notifications, clipboard-read, …) is ever granted to web content.
  session.defaultSession.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (isExternalLink(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (!mayNavigate(url, rendererUrl)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!mayNavigate(url, rendererUrl)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  // The menu carries the keyboard commands; Reload and the developer tools only when not packaged.
  const toElectron = ({ command, submenu, ...item }: MenuItemSpec): MenuItemConstructorOptions => ({
    ...(item as MenuItemConstructorOptions),
    ...(command ? { click: () => window?.webContents.send('menu:command', command) } : {}),
    ...(submenu ? { submenu: submenu.map(toElectron) } : {}),
  });
  const template = appMenuTemplate({ packaged: app.isPackaged, platform: process.platform });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template.map(toElectron)));

  const openWindow = () => {
    window = new BrowserWindow(mainWindowOptions(path.join(__dirname, 'preload.js'), { devTools: !app.isPackaged }));
    window.once('ready-to-show', () => window?.show());
    void window.loadURL(rendererUrl);
  };
  openWindow();
  void desktop.start();

  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Let running reviews finish (up to the service's grace period) before the process ends.
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    void desktop.close().finally(() => {
      closed = true;
      app.quit();
    });
  });
}
