// The extension's bundle, built by ../esbuild.config.mjs: one CommonJS file with `vscode` external
// and the whole service embedded (the bundled service), plus the two worker scripts the service
// loads from beside it at run time, and tree-sitter's grammars (grammars/) for the structural stage.
import { bundleGrammars } from '../service/engine/structure/bundle-grammars.mjs';

/** @type {import('esbuild').BuildOptions[]} */
export default [
  {
    entryPoints: {
      extension: 'extension/src/extension.ts',
      // piscina starts its own worker as path.resolve(__dirname, 'worker.js').
      worker: 'node_modules/piscina/dist/worker.js',
      // The service's review worker: new URL('./review-worker.js', import.meta.url).
      'review-worker': 'service/jobs/review-worker.ts',
    },
    outdir: 'extension/dist',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    bundle: true,
    // @napi-rs/nice: piscina's optional native module, loaded only for a niceIncrement (unused), in a catch.
    external: ['vscode', '@napi-rs/nice'],
    // CommonJS has no import.meta.url: the service's `new URL(…, import.meta.url)` reads this instead.
    define: { 'import.meta.url': '__import_meta_url' },
    banner: { js: 'var __import_meta_url = require("url").pathToFileURL(__filename).href;' },
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [bundleGrammars('extension/dist')],
  },
];
