// The flags every headless Chromium of the tests starts with: the desktop renderer suites'
// (test/desktop/support/renderer-harness.ts) and code-server's workbench
// (test/extension/host/code-server-launcher.mjs). Plain JS, so the launcher can import it under
// any Node the project supports, without stripping types.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];
