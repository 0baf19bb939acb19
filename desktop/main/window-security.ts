// The window's security settings, after Electron's security checklist. Plain values and
// functions, so the tests check exactly what main/index.ts hands to Electron.
import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The renderer loads only its own files; it makes no network requests at all (every service
 * call goes through IPC to the main process), so connect-src is 'none'. The app:// protocol
 * sends it as a response header (with frame-ancestors, see app-protocol.ts); the <meta> tag in
 * renderer/index.html repeats it for a page opened any other way; a test checks the two stay equal.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  // No frame-ancestors here: a <meta> policy cannot carry it; the response header adds it.
].join('; ');

/** `devTools`: false in a packaged build (app.isPackaged), so no shortcut can open them. */
export function mainWindowOptions(preloadPath: string, options = { devTools: false }): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    minWidth: 760,
    minHeight: 520,
    title: 'Diff Review',
    show: false, // shown on ready-to-show: no white flash before the theme applies
    backgroundColor: '#1b1d21',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: options.devTools,
    },
  };
}

/** Links that may leave the app: opened in the user's browser, never in the app's window. */
export function isExternalLink(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' || protocol === 'mailto:';
  } catch {
    return false;
  }
}

/** The window never navigates away from its page (a reload of the same page is fine). */
export function mayNavigate(target: string, rendererUrl: string): boolean {
  try {
    const to = new URL(target);
    const own = new URL(rendererUrl);
    return to.protocol === own.protocol && to.host === own.host && to.pathname === own.pathname;
  } catch {
    return false;
  }
}
