// Types of bundles.mjs (plain JS, so esbuild.config.mjs can import it without a TS loader).
import type { BuildOptions } from 'esbuild';

export function desktopBundles(outdir?: string): BuildOptions[];
declare const bundles: BuildOptions[];
export default bundles;
