// The desktop bundles as shipped: built by desktop/bundles.mjs into a temp folder, the main
// bundle requiring nothing but electron and Node, and the built-in service really reviewing a
// diff when its bundle (service-launcher.js + worker.js + review-worker.js) is loaded by Node.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDesktop } from './support/build.ts';

const outdir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-bundles-'));

describe('desktop bundles', () => {
  beforeAll(async () => {
    await buildDesktop(outdir, ['main', 'service', 'renderer']);
  }, 60_000);

  it('main.js and preload.js require only electron and Node built-ins; the renderer requires nothing', () => {
    const requires = (file: string) =>
      [...readFileSync(path.join(outdir, file), 'utf8').matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!);
    const allowed = (name: string) => name === 'electron' || name.startsWith('node:') || builtinModules.includes(name);
    expect(requires('main.js').filter((name) => !allowed(name))).toEqual([]);
    expect(requires('preload.js')).toEqual(['electron']); // a sandboxed preload may require electron only
    expect(requires('renderer/renderer.js')).toEqual([]);
    // The service is not in main.js: it is loaded from its own bundle only when chosen.
    expect(readFileSync(path.join(outdir, 'main.js'), 'utf8')).not.toContain('fastify');
    expect(JSON.parse(readFileSync(path.join(outdir, 'package.json'), 'utf8'))).toMatchObject({
      main: 'main.js',
      type: 'commonjs',
    });
  });

  it('runs the built-in service from the bundle and reviews a diff', async () => {
    const script = `
      const { startBuiltInService } = require(${JSON.stringify(path.join(outdir, 'service-launcher.js'))});
      (async () => {
        const userDataDir = require('fs').mkdtempSync(require('path').join(require('os').tmpdir(), 'dr-bundle-'));
        const service = await startBuiltInService({ userDataDir, service: { logLevel: 'warn' } });
        const call = async (token, route, body) => (await fetch(service.url + route, {
          method: body ? 'POST' : 'GET',
          headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
          body: body && JSON.stringify(body),
        })).json();
        const { token } = await call(service.dashboardToken, '/v1/auth/tokens', { name: 'bundle test' });
        const diff = 'diff --git a/a.js b/a.js\\n--- a/a.js\\n+++ b/a.js\\n@@ -1 +1,2 @@\\n const a = 1;\\n+debugger;\\n';
        let job = await call(token, '/v1/reviews', { diff, repository: 'github.com/acme/widgets' });
        while (job.status === 'queued' || job.status === 'running') {
          await new Promise((r) => setTimeout(r, 50));
          job = await call(token, '/v1/reviews/' + job.review_id);
        }
        await service.close();
        console.log(JSON.stringify(job));
      })().catch((error) => { console.error(error); process.exit(1); });
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
      cwd: os.tmpdir(),
      timeout: 30_000,
    });
    const job = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(job).toMatchObject({
      status: 'completed',
      comments: [expect.objectContaining({ file_path: 'a.js', line: 2, severity: 'warning' })],
    });
    expect(job.comments[0].message).toMatch(/^no-debugger:/);
  });
});
