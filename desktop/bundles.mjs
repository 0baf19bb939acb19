// The desktop app's bundles, built by esbuild.config.mjs (`npm run build`) into dist/desktop:
//   main.js, preload.js          the Electron main process and the sandboxed preload (CommonJS)
//   service-launcher.js          the built-in service, loaded by main.js only when chosen
//   worker.js, review-worker.js  piscina's worker and the review worker, beside the service
//   grammars/                    tree-sitter's runtime and grammars, for the service's structural stage
//   renderer/                    index.html, icon.svg, renderer.js, renderer.css (the UI, for the browser)
//   package.json                 {"main": "main.js", "type": "commonjs"}: `electron dist/desktop`
// Tests build the same bundles into a temp folder with desktopBundles(outdir).
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleGrammars } from '../service/engine/structure/bundle-grammars.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** @param {string} outdir absolute, or relative to the project root @returns {import('esbuild').BuildOptions[]} */
export function desktopBundles(outdir = 'dist/desktop') {
  const out = path.resolve(root, outdir);
  const node = {
    absWorkingDir: root,
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    sourcemap: true,
    logLevel: 'warning',
  };
  // CommonJS has no import.meta.url; the service needs it to find its worker and its grammars.
  // Only the service's bundle: the sandboxed preload may require electron alone.
  const importMetaUrl = {
    define: { 'import.meta.url': '__import_meta_url' },
    banner: { js: 'var __import_meta_url = require("url").pathToFileURL(__filename).href;' },
  };
  return [
    {
      ...node,
      entryPoints: { main: 'desktop/main/index.ts', preload: 'desktop/preload/index.ts' },
      external: ['electron'],
      // The main process reads project configs (which name the engine's rules) but never reviews:
      // the engine's grammar lookup, which reads import.meta.url, is never called here.
      define: { 'import.meta.url': 'undefined' },
      plugins: [appManifest(out)],
    },
    {
      ...node,
      ...importMetaUrl,
      // The service with all its packages: a packaged app has no node_modules to find them in.
      entryPoints: {
        'service-launcher': 'desktop/main/service-launcher.ts',
        // piscina starts path.resolve(__dirname, 'worker.js'): it must sit beside the bundle.
        worker: 'node_modules/piscina/dist/worker.js',
        // The service loads new URL('./review-worker.js', import.meta.url) (jobs/worker-file.ts).
        'review-worker': 'service/jobs/review-worker.ts',
      },
      external: ['electron', '@napi-rs/nice'],
      plugins: [bundleGrammars(out)],
    },
    {
      absWorkingDir: root,
      entryPoints: { renderer: 'desktop/renderer/main.tsx' },
      outdir: path.join(out, 'renderer'),
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'chrome130',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      sourcemap: true,
      minify: false,
      logLevel: 'warning',
      // The page and its icon (named by the page: a page without one has Chromium ask for /favicon.ico, a 404).
      plugins: [
        copyStatic(['index.html', 'icon.svg'], path.join(root, 'desktop/renderer'), path.join(out, 'renderer')),
      ],
    },
  ];
}

/** dist/desktop/package.json: makes the folder an Electron app and its .js files CommonJS. */
function appManifest(out) {
  return {
    name: 'desktop-app-manifest',
    setup(build) {
      build.onEnd(async () => {
        await mkdir(out, { recursive: true });
        const manifest = {
          name: 'diff-review-desktop',
          productName: 'Diff Review',
          version: '0.1.0',
          private: true,
          main: 'main.js',
          type: 'commonjs',
        };
        await writeFile(path.join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      });
    },
  };
}

/** Copies `files` from folder `from` into folder `to` after each build. */
function copyStatic(files, from, to) {
  return {
    name: 'desktop-copy-static',
    setup(build) {
      build.onEnd(async () => {
        await mkdir(to, { recursive: true });
        await Promise.all(files.map((file) => copyFile(path.join(from, file), path.join(to, file))));
      });
    },
  };
}

export default desktopBundles();
