// Builds every bundle of the project. `node esbuild.config.mjs` builds once; `--watch` rebuilds.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build, context } from 'esbuild';

const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions[]} */
const bundles = [
  {
    // The service and its CLI, with the npm packages they use: a chunk is read as one file, where
    // node_modules costs a resolution and a read for each file of a package (typebox has hundreds),
    // most of `diff-review serve`'s start (test/bench/cold-start.ts).
    // Left in node_modules: piscina, which starts its own worker script from its package folder; the
    // tree-sitter grammars, files beside their package; pg and pg-boss, PostgreSQL mode's only; and
    // the packages the code imports with import() (importedWhenNeeded).
    entryPoints: { cli: 'service/cli.ts', 'review-worker': 'service/jobs/review-worker.ts', index: 'service/index.ts' },
    outdir: 'dist/service',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    bundle: true,
    external: ['piscina', '@vscode/tree-sitter-wasm', 'pg', 'pg-boss'],
    plugins: [importedWhenNeeded()],
    // Shared code and each command's lazily imported modules go in chunks beside the entries (in
    // the same folder: jobs/worker-file.ts finds review-worker.js beside the code that asks), so
    // `diff-review review` does not load the HTTP server (service/cli.ts).
    splitting: true,
    sourcemap: true,
    // The bundled CommonJS packages call require() (node:* modules, the packages left outside).
    banner: {
      js: '#!/usr/bin/env node\nimport { createRequire as __bannerCreateRequire } from "node:module";\nconst require = __bannerCreateRequire(import.meta.url);',
    },
    logLevel: 'warning',
    // what this build wrote: chunks of earlier builds (hashed names) are removed, so that the
    // folder `npm pack` ships holds this build's files only
    metafile: true,
  },
];

// The clients declare their own bundles beside their code (extension/bundles.mjs, desktop/bundles.mjs).
for (const part of ['extension', 'desktop']) {
  const file = new URL(`./${part}/bundles.mjs`, import.meta.url);
  if (existsSync(file)) bundles.push(...(await import(file.href)).default);
}

if (watch) {
  for (const options of bundles) await (await context(options)).watch();
  console.log('esbuild: watching');
} else {
  const started = Date.now();
  const results = await Promise.all(bundles.map((options) => build(options)));
  pruneStaleOutputs(bundles[0].outdir, results[0].metafile);
  console.log(`esbuild: built ${bundles.length} bundle(s) in ${Date.now() - started} ms`);
}

/**
 * Leaves external a package the code imports with import(): the chunk esbuild makes of a CommonJS
 * package (yaml) has only a default export, where Node's import() gives its named exports too.
 */
function importedWhenNeeded() {
  return {
    name: 'imported-when-needed',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
      );
    },
  };
}

/** Deletes the files in `outdir` a build did not write (its metafile lists what it wrote). */
function pruneStaleOutputs(outdir, metafile) {
  const written = new Set(Object.keys(metafile.outputs).map((file) => path.resolve(file)));
  for (const name of readdirSync(outdir)) {
    const file = path.resolve(outdir, name);
    if (!written.has(file)) rmSync(file, { recursive: true, force: true });
  }
}
