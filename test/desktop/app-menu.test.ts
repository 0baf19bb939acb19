// The application menu (main/app-menu.ts) under Node: no developer tools or reload in a packaged
// build, and the dashboard's keyboard commands with their shortcuts (issue 14). That Electron
// builds it and that DevTools stay closed in a packaged app needs the Electron binary.
import { describe, expect, it } from 'vitest';
import { appMenuTemplate, type MenuItemSpec, menuRoles } from '../../desktop/main/app-menu.ts';
import { mainWindowOptions } from '../../desktop/main/window-security.ts';

const items = (template: readonly MenuItemSpec[]): MenuItemSpec[] =>
  template.flatMap((item) => [item, ...items(item.submenu ?? [])]);

describe('application menu', () => {
  it('has no developer tools and no reload in a packaged build, on every system', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const roles = menuRoles(appMenuTemplate({ packaged: true, platform }));
      expect(roles).not.toContain('toggleDevTools');
      expect(roles).not.toContain('forceReload');
      expect(roles).not.toContain('reload');
      expect(roles).toEqual(expect.arrayContaining(['editMenu', 'windowMenu']));
    }
    expect(mainWindowOptions('/p.js', { devTools: false }).webPreferences?.devTools).toBe(false);
    expect(mainWindowOptions('/p.js').webPreferences?.devTools).toBe(false);
  });

  it('has them while developing', () => {
    expect(menuRoles(appMenuTemplate({ packaged: false, platform: 'linux' }))).toEqual(
      expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']),
    );
    expect(mainWindowOptions('/p.js', { devTools: true }).webPreferences?.devTools).toBe(true);
  });

  it('carries the keyboard commands with their shortcuts; one-key ones are left to the page', () => {
    const commands = items(appMenuTemplate({ packaged: true, platform: 'linux' })).filter((item) => item.command);
    expect(commands.map((item) => [item.command, item.accelerator, item.registerAccelerator ?? true])).toEqual([
      ['new-review', 'CmdOrCtrl+N', true],
      ['show-reviews', 'CmdOrCtrl+1', true],
      ['show-tokens', 'CmdOrCtrl+2', true],
      ['focus-search', '/', false],
      ['next-review', 'J', false],
      ['previous-review', 'K', false],
      ['open-review', 'Enter', false],
      ['back-to-list', 'Escape', false],
    ]);
    // macOS has its app menu first; elsewhere File is first and ends with Quit.
    expect(appMenuTemplate({ packaged: true, platform: 'darwin' })[0]).toEqual({ role: 'appMenu' });
    expect(appMenuTemplate({ packaged: true, platform: 'linux' })[0]?.submenu?.at(-1)).toEqual({ role: 'quit' });
  });
});
