// Another VS Code window's bundled service, in a process of its own: loads the extension's bundle
// as that window's extension host would, starts its BundledService on the given data dir, prints
// `{"url": …}`, and stops it on SIGTERM (the window closes).
//   node other-window.js <extension dir> <data dir>
import Module from 'node:module';
import path from 'node:path';
import type { BundledService } from '../../../../extension/src/bundled-service.ts';

const [extensionDir, dataDir] = process.argv.slice(2);
if (!extensionDir || !dataDir) throw new Error('usage: other-window.js <extension dir> <data dir>');

// `vscode` exists only inside an extension host; nothing the bundled service does touches it.
const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const load = loader._load;
loader._load = function (request, ...rest) {
  return request === 'vscode' ? {} : load.call(this, request, ...rest);
};
const { BundledService: Bundled } = require(path.join(extensionDir, 'dist', 'extension.js')) as {
  BundledService: new (dir: string, log: unknown) => BundledService;
};
const quiet = () => {};
const service = new Bundled(dataDir, { info: quiet, warn: quiet, error: (message: string) => console.error(message) });

service.endpoint().then(
  (endpoint) => process.stdout.write(`${JSON.stringify({ url: endpoint.url })}\n`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
process.on('SIGTERM', () => void service.dispose().then(() => process.exit(0)));
