// Debug mode where the app faces the network: Django's DEBUG in production settings shows
// stack traces, settings and SQL to anyone; Flask's debugger on 0.0.0.0 runs code for anyone;
// Laravel's APP_DEBUG and ASP.NET's compilation debug show internals; a Kubernetes workload
// started with Flask's, Django's or Laravel's debug switch on.
import { baseName, isPhp, isPython, isYaml, notTestCode } from '../files.ts';
import type { YamlDocument, YamlFound, YamlNode } from '../../structure/yaml-tree.ts';
import { valueUnder } from '../../structure/yaml-tree.ts';
import type { AddedLine, LineRule } from '../rule.ts';
import { isCodeAt, spanOf } from '../rule.ts';

/** settings/production.py, prod_settings.py, config/settings_prod.py, ... */
const isProductionSettings = (path: string): boolean =>
  isPython(path) &&
  /(^|[/_.-])(?:prod|production|live)([/_.-]|\.py$)/i.test(path) &&
  /settings|config|conf/i.test(path + baseName(path));

/** ASP.NET's web.config (not its Debug transform, Web.Debug.config, which is for development). */
const isWebConfig = (path: string): boolean => /^web\.config$/i.test(baseName(path));

/** Laravel's debug switch set in code: config(['app.debug' => true]), putenv('APP_DEBUG=true'), $_ENV['APP_DEBUG'] = true. */
const LARAVEL_DEBUG =
  /\bconfig\s*\(\s*\[\s*["']app\.debug["']\s*=>\s*["']?(?:true|1)\b|\bputenv\s*\(\s*["']APP_DEBUG=(?:true|1)\b|\$_(?:ENV|SERVER)\s*\[\s*["']APP_DEBUG["']\s*\]\s*=\s*["']?(?:true|1)\b/i;

/** Environment variables that turn a framework's debug mode on, and the values that do. */
const DEBUG_SWITCHES = new Map<string, RegExp>([
  ['FLASK_ENV', /^development$/i],
  ['FLASK_DEBUG', /^(?:1|true)$/i],
  ['DJANGO_DEBUG', /^(?:1|true)$/i],
  ['APP_DEBUG', /^(?:1|true)$/i],
]);
/** Kubernetes kinds that run containers. */
const WORKLOADS = /^(?:Pod|Deployment|StatefulSet|DaemonSet|ReplicaSet|Job|CronJob|DeploymentConfig)$/;

/** In a Kubernetes workload's containers: an `env` entry { name, value } that turns debug on. */
function debugInWorkload(documents: readonly YamlDocument[]): YamlFound[] {
  const found: YamlFound[] = [];
  const visit = (document: YamlDocument, node: YamlNode | null | undefined) => {
    if (node?.kind === 'seq') for (const item of node.items) visit(document, item);
    if (node?.kind !== 'map') return;
    for (const { key, value } of node.entries) {
      if (key === 'env' && value?.kind === 'seq')
        for (const item of value.items) {
          const name = valueUnder(item, 'name');
          const setting = valueUnder(item, 'value');
          if (
            name?.kind === 'scalar' &&
            setting?.kind === 'scalar' &&
            DEBUG_SWITCHES.get(name.value)?.test(setting.value)
          )
            found.push({ document, start: item.range[0], end: setting.range[1] });
        }
      else visit(document, value);
    }
  };
  for (const document of documents) {
    const kind = valueUnder(document.root, 'kind');
    if (kind?.kind === 'scalar' && WORKLOADS.test(kind.value)) visit(document, document.root);
  }
  return found;
}

/** A `<compilation` element still open on one of the lines above (its attributes run over several). */
function compilationOpenAbove(line: AddedLine): boolean {
  for (let offset = -1; offset >= -5; offset--) {
    const above = line.lineAt(offset)?.text;
    if (above === undefined || above.includes('>')) return false;
    if (/<compilation\b/i.test(above)) return true;
  }
  return false;
}

export const noDebugInProduction: LineRule = {
  kind: 'line',
  id: 'no-debug-in-production',
  severity: 'warning',
  summary:
    'Debug mode on where the app faces the network (DEBUG = True in production settings, app.run(host="0.0.0.0", debug=True), Laravel\'s APP_DEBUG, ASP.NET\'s compilation debug, a Kubernetes workload with FLASK_ENV=development).',
  help: 'Read DEBUG from the environment with a false default (DEBUG = os.environ.get("DEBUG") == "1"); run Flask\'s debugger only on 127.0.0.1; leave APP_DEBUG, compilation debug and FLASK_ENV to development settings.',
  message:
    "Debug mode is on where the app faces the network: it shows internals (and Flask's debugger runs code) for anyone who can reach it; turn it off outside development.",
  files: notTestCode((path) => isPython(path) || isPhp(path) || isWebConfig(path) || isYaml(path)),
  keywords: ['DEBUG', 'debug=True', 'debug = True', 'app.debug', 'debug="true"', "debug='true'"],
  // Kubernetes manifests are read parsed: which container's env a setting is in.
  syntax: { keywords: [...DEBUG_SWITCHES.keys()], languages: { yaml: { yaml: debugInWorkload } } },
  reads: 'text',
  check(line) {
    if (isWebConfig(line.path)) {
      const m = /<compilation\b[^>]{0,300}?\bdebug\s*=\s*["']true["']/i.exec(line.text);
      if (m) return spanOf(m);
      // the attribute on a line of its own, inside a <compilation element opened above
      const attribute = /^\s*(?:[\w:.-]+\s*=\s*"[^"]*"\s+){0,5}debug\s*=\s*["']true["']/i.exec(line.text);
      return attribute && compilationOpenAbove(line) ? spanOf(attribute) : null;
    }
    if (isPhp(line.path)) {
      const m = LARAVEL_DEBUG.exec(line.text);
      return m && isCodeAt(line, m.index) ? spanOf(m) : null;
    }
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
