// `npm run package:extension`: builds the extension and packs dist/diff-review-<version>.vsix with
// @vscode/vsce, offline (`-- --out <file>` packs elsewhere). The bundle holds every dependency, so the .vsix carries no node_modules
// (--no-dependencies); package.json "files" lists exactly what goes in.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildExtension, projectRoot } from './build.mjs';

const extensionDir = path.join(projectRoot, 'extension');
const manifest = JSON.parse(readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
const outIndex = process.argv.indexOf('--out');
const out =
  outIndex > 0
    ? path.resolve(process.argv[outIndex + 1])
    : path.join(projectRoot, 'dist', `${manifest.name}-${manifest.version}.vsix`);

await buildExtension();
mkdirSync(path.dirname(out), { recursive: true });
const vsce = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');
const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], {
  cwd: extensionDir,
  stdio: 'inherit',
});
if (result.status !== 0) process.exit(result.status ?? 1);
console.log(`${path.relative(projectRoot, out)}: ${(statSync(out).size / 1024).toFixed(0)} KiB`);
