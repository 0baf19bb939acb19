// Debug mode where the app faces the network: Django's DEBUG in production settings shows
// stack traces, settings and SQL to anyone; Flask's debugger on 0.0.0.0 runs code for anyone.
import { baseName, isPython } from '../files.ts';
import type { LineRule } from '../rule.ts';
import { isCodeAt, spanOf } from '../rule.ts';

/** settings/production.py, prod_settings.py, config/settings_prod.py, ... */
const isProductionSettings = (path: string): boolean =>
  isPython(path) &&
  /(^|[/_.-])(?:prod|production|live)([/_.-]|\.py$)/i.test(path) &&
  /settings|config|conf/i.test(path + baseName(path));

export const noDebugInProduction: LineRule = {
  kind: 'line',
  id: 'no-debug-in-production',
  severity: 'warning',
  summary:
    'Debug mode on where the app faces the network (DEBUG = True in production settings, app.run(host="0.0.0.0", debug=True)).',
  help: 'Read DEBUG from the environment with a false default (DEBUG = os.environ.get("DEBUG") == "1"); run Flask\'s debugger only on 127.0.0.1.',
  message:
    "Debug mode is on where the app faces the network: it shows internals (and Flask's debugger runs code) for anyone who can reach it; turn it off outside development.",
  files: isPython,
  keywords: ['DEBUG', 'debug=True', 'debug = True'],
  reads: 'text',
  check(line) {
    if (isProductionSettings(line.path)) {
      const m = /^\s*DEBUG\s*=\s*True\b/.exec(line.text);
      if (m) return spanOf(m);
    }
    const run = /\b(?:app|application|server)\.run\s*\([^)]{0,200}?\bdebug\s*=\s*True\b[^)]{0,200}\)/.exec(line.text);
    // The host by name (host="0.0.0.0") or as the first argument (app.run("0.0.0.0", debug=True)).
    if (
      run &&
      isCodeAt(line, run.index) &&
      /\bhost\s*=\s*["']0\.0\.0\.0["']|\.run\s*\(\s*["']0\.0\.0\.0["']/.test(run[0])
    )
      return spanOf(run);
    return null;
  },
};
