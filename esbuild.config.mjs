// Builds every bundle of the project. `node esbuild.config.mjs` builds once; `--watch` rebuilds.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build, context } from 'esbuild';

const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions[]} */
const bundles = [
  {
    // The service and its CLI. npm packages stay external: the service runs beside node_modules,
    // and piscina finds its own worker script through its package folder.
    entryPoints: { cli: 'service/cli.ts', 'review-worker': 'service/jobs/review-worker.ts', index: 'service/index.ts' },
    outdir: 'dist/service',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    bundle: true,
    packages: 'external',
    // Shared code and each command's lazily imported modules go in chunks beside the entries (in
    // the same folder: jobs/worker-file.ts finds review-worker.js beside the code that asks), so
    // `diff-review review` does not load the HTTP server (service/cli.ts).
    splitting: true,
    sourcemap: true,
    banner: { js: '#!/usr/bin/env node' },
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

/** Deletes the files in `outdir` a build did not write (its metafile lists what it wrote). */
function pruneStaleOutputs(outdir, metafile) {
  const written = new Set(Object.keys(metafile.outputs).map((file) => path.resolve(file)));
  for (const name of readdirSync(outdir)) {
    const file = path.resolve(outdir, name);
    if (!written.has(file)) rmSync(file, { recursive: true, force: true });
  }
}
