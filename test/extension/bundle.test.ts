// The built extension bundle (CommonJS, everything inlined) embeds a service that really reviews:
// piscina's worker and the review worker beside it, secretlint (ESM packages) converted to CJS,
// tree-sitter's runtime and grammars in grammars/ (the structural stage).
// It runs from a copy outside the project, as from an installed .vsix: no node_modules to fall back on.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../service/client/index.ts';
import type { BundledService } from '../../extension/src/bundled-service.ts';
import { buildExtension, projectRoot } from '../../extension/scripts/build.mjs';

const built = path.join(projectRoot, 'extension', 'dist');
const BUNDLE_FILES = ['extension.js', 'worker.js', 'review-worker.js'];
const installed = mkdtempSync(path.join(os.tmpdir(), 'diff-review-bundle-'));
const bundle = path.join(installed, 'dist', 'extension.js');
const dataDir = path.join(installed, 'data');
let service: BundledService;
const logged: string[] = [];

beforeAll(async () => {
  await buildExtension();
  mkdirSync(path.dirname(bundle));
  for (const file of BUNDLE_FILES) copyFileSync(path.join(built, file), path.join(installed, 'dist', file));
  // the files package.json's "files" ships beside them: the grammars the review worker loads
  mkdirSync(path.join(installed, 'dist', 'grammars'));
  for (const file of readdirSync(path.join(built, 'grammars')))
    copyFileSync(path.join(built, 'grammars', file), path.join(installed, 'dist', 'grammars', file));
  // `vscode` exists only inside an extension host; nothing in the bundle touches it while loading.
  const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
  (Module as unknown as { _load: typeof load })._load = function (request, ...rest) {
    return request === 'vscode' ? {} : load.call(this, request, ...rest);
  };
  try {
    const { BundledService } = createRequire(import.meta.url)(bundle) as {
      BundledService: new (dir: string, log: unknown) => BundledService;
    };
    const log = {
      info: (m: string) => logged.push(m),
      warn: (m: string) => logged.push(m),
      error: (m: string) => logged.push(m),
    };
    service = new BundledService(dataDir, log);
  } finally {
    (Module as unknown as { _load: typeof load })._load = load;
  }
}, 60_000);
afterAll(async () => {
  await service?.dispose();
  rmSync(installed, { recursive: true, force: true });
});

describe('the extension bundle', () => {
  it('is one CommonJS file with the two worker scripts beside it', () => {
    for (const file of BUNDLE_FILES) expect(statSync(path.join(built, file)).size).toBeGreaterThan(1000);
  });

  it("runs the bundled service, which reviews a diff with the engine's rules (secretlint and the structural stage included)", async () => {
    const endpoint = await service.endpoint();
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { token } = await createClient({ baseUrl: endpoint.url, token: await endpoint.dashboardToken() }).createToken(
      { name: 'VS Code extension' },
    );
    const client = createClient({ baseUrl: endpoint.url, token });
    const added = [
      'function main() {',
      '  debugger;',
      '  const aws_secret_access_key = "Zq3rT8vK2mN9pX4wL7yB1cF6hJ0dS5gA2eR8tY3u";',
      '  const q = "SELECT * FROM users WHERE id = " + id;',
      '  return db.query(q);',
      '}',
    ];
    const diff = [
      'diff --git a/src/app.js b/src/app.js',
      'new file mode 100644',
      'index 0000000..1111111',
      '--- /dev/null',
      '+++ b/src/app.js',
      `@@ -0,0 +1,${added.length} @@`,
      ...added.map((l) => `+${l}`),
      '',
    ].join('\n');
    const created = await client.createReview({ diff, repository: 'bundle-test' });
    const job = await client.waitForReview(created.review_id, { timeoutMs: 20_000 });
    expect(job.status, `${JSON.stringify(job.error)}\n${logged.join('\n')}`).toBe('completed');
    expect(job.comments?.map((c) => [c.line, c.severity, c.message.split(':')[0]])).toEqual([
      [2, 'warning', 'no-debugger'],
      [3, 'error', 'secret'],
      // read from the syntax tree: the query is built a line before it runs
      [5, 'warning', 'no-sql-string-building'],
    ]);
    expect(logged.join('\n')).not.toContain(token);
  });
});
