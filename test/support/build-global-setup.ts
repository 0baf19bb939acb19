// vitest globalSetup: builds every bundle once, before any test file runs. Test files run two at a
// time, and a file that rebuilt dist/ (or extension/dist) while another ran the built CLI or loaded
// the extension made that one read half-written files. buildCli() is a no-op after this.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup() {
  if (process.env.DIFF_REVIEW_TEST_BUILT === '1') return;
  execFileSync(process.execPath, ['esbuild.config.mjs'], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    stdio: 'ignore',
  });
  // inherited by the test workers, which start after the global setups
  process.env.DIFF_REVIEW_TEST_BUILT = '1';
}
