// An esbuild plugin for the bundles that carry the service without node_modules (the extension's
// and the desktop app's): copies tree-sitter's runtime and the grammars the structural stage
// loads into `grammars/` beside the bundle, where grammars.ts looks first.
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { GRAMMAR_FILES, grammarFolder } from './grammars.ts';

/** @param {string} outdir the bundle's folder @returns {import('esbuild').Plugin} */
export function bundleGrammars(outdir) {
  return {
    name: 'bundle-grammars',
    setup(build) {
      build.onEnd(async () => {
        const from = grammarFolder();
        const to = path.join(outdir, 'grammars');
        await mkdir(to, { recursive: true });
        await Promise.all(GRAMMAR_FILES.map((file) => copyFile(path.join(from, file), path.join(to, file))));
      });
    },
  };
}
