// Loaded with `node --import` before the CLI: at exit, writes the npm packages the process loaded
// to the file named in LOADED_PACKAGES_FILE, one per line: those resolved in node_modules, and those
// bundled into the files of dist/ it loaded (named by each file's source map).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

const PACKAGE = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/; // the last one: a source map may name a path in .pnpm/
const seen = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const match = resolved.url.match(PACKAGE);
    if (match) seen.add(match[1]);
    else if (resolved.url.startsWith('file:') && resolved.url.includes('/dist/'))
      bundledIn(fileURLToPath(resolved.url));
    return resolved;
  },
});

function bundledIn(file) {
  if (!existsSync(`${file}.map`)) return;
  for (const source of JSON.parse(readFileSync(`${file}.map`, 'utf8')).sources) {
    const match = source.match(PACKAGE);
    if (match) seen.add(match[1]);
  }
}

process.on('exit', () => writeFileSync(process.env.LOADED_PACKAGES_FILE, [...seen].sort().join('\n')));
