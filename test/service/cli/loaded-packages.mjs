// Loaded with `node --import` before the CLI: at exit, writes the npm packages the process
// resolved to the file named in LOADED_PACKAGES_FILE, one per line.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const seen = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const match = resolved.url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
    if (match) seen.add(match[1]);
    return resolved;
  },
});
process.on('exit', () => writeFileSync(process.env.LOADED_PACKAGES_FILE, [...seen].sort().join('\n')));
