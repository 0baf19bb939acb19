// Where the review worker's code is: beside this module when running from source (Node strips
// the types), or beside the bundle (esbuild builds review-worker.js next to every bundle that
// embeds the service; CommonJS bundles define import.meta.url from __filename).
export function defaultWorkerFile(): URL {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './review-worker.ts' : './review-worker.js', here);
}
