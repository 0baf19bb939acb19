// The client runs in Electron renderers and browsers: it must bundle for the browser without
// Node built-ins, and without typebox (schemas.ts is imported for types only).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('bundles for the browser without node built-ins or typebox', async () => {
  const entry = fileURLToPath(new URL('../../../service/client/index.ts', import.meta.url));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.some((input) => input.includes('node_modules/ky/'))).toBe(true);
  expect(inputs.filter((input) => input.startsWith('node:') || input.includes('typebox'))).toEqual([]);
});
