// Builds the extension's bundles only (`npm run build` builds them with everything else).
//   node extension/scripts/build.mjs
// Each file is written to a temporary name and renamed into place, and only when it changed, so
// tests that build it in parallel (and an extension host reading it) never see half a file.
import { build } from 'esbuild';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import bundles from '../bundles.mjs';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export async function buildExtension() {
  const started = Date.now();
  // The bundle options use paths relative to the project root, as esbuild.config.mjs runs there.
  const results = await Promise.all(
    bundles.map((options) => build({ ...options, absWorkingDir: projectRoot, write: false })),
  );
  for (const file of results.flatMap((result) => result.outputFiles)) {
    const current = await readFile(file.path).catch(() => undefined);
    if (current?.equals(file.contents)) continue;
    await mkdir(path.dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
  }
  return Date.now() - started;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(`esbuild: built the extension in ${await buildExtension()} ms`);
}
