// The application menu as plain data: main/index.ts turns it into Electron's Menu, the tests read
// it under Node. It carries the dashboard's keyboard commands (sent to the window as
// 'menu:command') and, only in a development build, Reload and the developer tools.
import type { MenuCommand } from '../shared/ipc-contract.ts';

export interface MenuItemSpec {
  label?: string;
  /** One of Electron's menu roles (copy, quit, toggleDevTools, …). */
  role?: string;
  type?: 'separator';
  accelerator?: string;
  /**
   * False for one-key shortcuts (J, K, /, Esc): the menu shows them, the page handles the key,
   * so typing those characters in a text field still works.
   */
  registerAccelerator?: boolean;
  /** Sent to the window when the item is chosen. */
  command?: MenuCommand;
  submenu?: MenuItemSpec[];
}

export interface AppMenuOptions {
  /** app.isPackaged: a packaged build has no Reload and no developer tools. */
  packaged: boolean;
  platform: NodeJS.Platform;
}

const separator: MenuItemSpec = { type: 'separator' };
const pageKey = (label: string, accelerator: string, command: MenuCommand): MenuItemSpec => ({
  label,
  accelerator,
  registerAccelerator: false,
  command,
});

export function appMenuTemplate(options: AppMenuOptions): MenuItemSpec[] {
  const mac = options.platform === 'darwin';
  const development: MenuItemSpec[] = options.packaged
    ? []
    : [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator];
  return [
    ...(mac ? [{ role: 'appMenu' }] : []),
    {
      label: '&File',
      submenu: [
        { label: 'New Review', accelerator: 'CmdOrCtrl+N', command: 'new-review' },
        separator,
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
        { label: 'Reviews', accelerator: 'CmdOrCtrl+1', command: 'show-reviews' },
        { label: 'Tokens', accelerator: 'CmdOrCtrl+2', command: 'show-tokens' },
        separator,
        pageKey('Search Reviews', '/', 'focus-search'),
        pageKey('Next Review', 'J', 'next-review'),
        pageKey('Previous Review', 'K', 'previous-review'),
        pageKey('Open Review', 'Enter', 'open-review'),
        pageKey('Back to the List', 'Escape', 'back-to-list'),
        separator,
        ...development,
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        separator,
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
}

/** Every role in a template, however deep (for the tests and the packaged-build check). */
export function menuRoles(template: readonly MenuItemSpec[]): string[] {
  return template.flatMap((item) => [...(item.role ? [item.role] : []), ...menuRoles(item.submenu ?? [])]);
}
