// The app:// protocol (main/app-protocol.ts) under Node: it serves the renderer's files and
// nothing else, with the right types and the CSP as a header (issue 14). Electron's part
// (registerSchemesAsPrivileged, protocol.handle) needs the Electron binary (electron-app.test.ts).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appResponse, CSP_HEADER, RENDERER_URL, resolveAppPath } from '../../desktop/main/app-protocol.ts';
import { isTrustedSender } from '../../desktop/main/ipc-router.ts';
import { CONTENT_SECURITY_POLICY, mayNavigate } from '../../desktop/main/window-security.ts';

const outer = mkdtempSync(path.join(os.tmpdir(), 'diff-review-app-protocol-'));
const root = path.join(outer, 'renderer');
mkdirSync(path.join(root, 'fonts'), { recursive: true });
writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>x</title>');
writeFileSync(path.join(root, 'renderer.js'), 'console.log(1)');
writeFileSync(path.join(root, 'renderer.css'), 'body{}');
writeFileSync(path.join(root, 'renderer.js.map'), '{}');
writeFileSync(path.join(root, 'fonts', 'a.woff2'), 'font');
writeFileSync(path.join(root, 'notes.txt'), 'not served');
writeFileSync(path.join(outer, 'secret.js'), 'outside');
mkdirSync(path.join(root, 'folder.js'));

describe('app:// protocol', () => {
  it('serves the page and its files with their types, the CSP as a header and no sniffing', async () => {
    const page = await appResponse(RENDERER_URL, root);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CSP_HEADER);
    expect(CSP_HEADER).toContain(CONTENT_SECURITY_POLICY);
    expect(CSP_HEADER).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<title>x</title>');
    const types = {
      'app://renderer/renderer.js': 'text/javascript; charset=utf-8',
      'app://renderer/renderer.css?v=2#x': 'text/css; charset=utf-8',
      'app://renderer/renderer.js.map': 'application/json; charset=utf-8',
      'app://renderer/fonts/a.woff2': 'font/woff2',
      'app://renderer/': 'text/html; charset=utf-8',
    };
    for (const [url, type] of Object.entries(types)) {
      const response = await appResponse(url, root);
      expect([url, response.status, response.headers.get('content-type')]).toEqual([url, 200, type]);
    }
    const head = await appResponse(RENDERER_URL, root, 'HEAD');
    expect([head.status, await head.text()]).toEqual([200, '']);
    expect((await appResponse(RENDERER_URL, root, 'POST')).status).toBe(405);
  });

  it('never serves a file outside the renderer folder, however the path is spelt', async () => {
    for (const url of [
      'app://renderer/../secret.js',
      'app://renderer/%2e%2e/secret.js',
      'app://renderer/%2E%2E%2Fsecret.js',
      'app://renderer/fonts/..%2F..%2Fsecret.js',
      'app://renderer/..%5Csecret.js',
      'app://renderer/index.html%00.js',
      `app://renderer/${encodeURIComponent(path.join(outer, 'secret.js'))}`,
      'app://other/renderer.js',
      'file:///etc/passwd',
    ]) {
      const response = await appResponse(url, root);
      expect([url, response.status]).toEqual([url, 404]);
      expect(await response.text()).toBe('');
    }
    expect(resolveAppPath('app://renderer/%E0%A4%A', root)).toEqual({ status: 400 });
    expect(resolveAppPath('not a url', root)).toEqual({ status: 400 });
  });

  it('answers 404 for unknown files, folders and types it does not serve', async () => {
    expect((await appResponse('app://renderer/missing.js', root)).status).toBe(404);
    expect((await appResponse('app://renderer/folder.js', root)).status).toBe(404);
    expect((await appResponse('app://renderer/notes.txt', root)).status).toBe(404);
  });

  it('is the only page that may send IPC requests or be navigated to', () => {
    expect(isTrustedSender({ url: RENDERER_URL, parent: null }, RENDERER_URL)).toBe(true);
    expect(isTrustedSender({ url: `${RENDERER_URL}#tokens`, parent: null }, RENDERER_URL)).toBe(true);
    expect(isTrustedSender({ url: 'app://renderer/other.html', parent: null }, RENDERER_URL)).toBe(false);
    expect(isTrustedSender({ url: 'app://evil/index.html', parent: null }, RENDERER_URL)).toBe(false);
    expect(isTrustedSender({ url: 'file:///opt/app/renderer/index.html', parent: null }, RENDERER_URL)).toBe(false);
    expect(mayNavigate(`${RENDERER_URL}?x`, RENDERER_URL)).toBe(true);
    expect(mayNavigate('app://renderer/renderer.js', RENDERER_URL)).toBe(false);
    expect(mayNavigate('file:///opt/app/renderer/index.html', RENDERER_URL)).toBe(false);
  });
});
