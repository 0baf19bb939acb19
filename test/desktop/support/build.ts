// Builds the desktop bundles exactly as `npm run build` does (desktop/bundles.mjs), into a temp
// folder, so tests never depend on a stale dist/.
import { build, type BuildOptions } from 'esbuild';
import { desktopBundles } from '../../../desktop/bundles.mjs';

export type DesktopBundle = 'main' | 'service' | 'renderer';

function pick(options: BuildOptions): DesktopBundle {
  const entries = Object.keys(options.entryPoints as Record<string, string>);
  if (entries.includes('renderer')) return 'renderer';
  if (entries.includes('service-launcher')) return 'service';
  return 'main';
}

export async function buildDesktop(outdir: string, which: DesktopBundle[]): Promise<void> {
  const bundles = desktopBundles(outdir).filter((options) => which.includes(pick(options)));
  await Promise.all(bundles.map((options) => build({ ...options, logLevel: 'error' })));
}
