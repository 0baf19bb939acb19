// The app:// protocol the window loads its page from, instead of file:// (where CSP 'self' would
// match every local file). Electron-free: main/index.ts hands each request to appResponse through
// protocol.handle; the tests call it directly and the renderer harness serves it over loopback.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_SECURITY_POLICY } from './window-security.ts';

export const APP_SCHEME = 'app';
/** The one host of the scheme: the renderer's files (dist/desktop/renderer). */
const APP_HOST = 'renderer';
export const RENDERER_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * The CSP as a response header: the same policy as the page's <meta>, plus what only a header
 * can carry (no page may frame the app).
 */
export const CSP_HEADER = `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`;

/** The only kinds of file the renderer has; anything else is not served. */
const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export type AppPath = { file: string; type: string } | { status: 400 | 404 };

/** Which file under `rootDir` an app:// URL names, or why none: never a file outside `rootDir`. */
export function resolveAppPath(url: string, rootDir: string): AppPath {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { status: 400 };
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host.toLowerCase() !== APP_HOST) return { status: 404 };
  let relative: string;
  try {
    relative = decodeURIComponent(parsed.pathname);
  } catch {
    return { status: 400 };
  }
  // Decoding can bring back what URL parsing had removed: "..", "\", NUL.
  if (relative.includes('\0') || relative.includes('\\') || relative.split('/').includes('..')) return { status: 404 };
  const root = path.resolve(rootDir);
  const file = path.resolve(root, `.${relative === '/' || relative === '' ? '/index.html' : relative}`);
  if (!file.startsWith(root + path.sep)) return { status: 404 };
  const type = MIME_TYPES[path.extname(file).toLowerCase()];
  return type ? { file, type } : { status: 404 };
}

const BASE_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };

/** The answer to one app:// request (GET or HEAD). */
export async function appResponse(url: string, rootDir: string, method = 'GET'): Promise<Response> {
  if (method !== 'GET' && method !== 'HEAD') return new Response(null, { status: 405, headers: BASE_HEADERS });
  const target = resolveAppPath(url, rootDir);
  if ('status' in target) return new Response(null, { status: target.status, headers: BASE_HEADERS });
  const info = await stat(target.file).catch(() => undefined);
  if (!info?.isFile()) return new Response(null, { status: 404, headers: BASE_HEADERS });
  const headers = { ...BASE_HEADERS, 'Content-Type': target.type, 'Content-Security-Policy': CSP_HEADER };
  if (method === 'HEAD') return new Response(null, { status: 200, headers });
  return new Response(await readFile(target.file), { status: 200, headers });
}
