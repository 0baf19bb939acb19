// APIs that run text as code or markup, or deserialize untrusted data into objects.
import type { SyntaxLanguage } from '../structure/languages.ts';
import { isCSharp, isJavaScript, isJvm, isPhp, isPython, isRuby, notFixture } from './files.ts';
import type { LanguageSyntax, LineRule } from './rule.ts';
import { isCodeAt, patternRule, withoutComment, spanOf } from './rule.ts';

/** Calls that run their argument as code: reported unless the argument is a constant. */
const JS_EVAL: LanguageSyntax = {
  sinks: [
    {
      calls: ['eval', 'vm.runInNewContext', 'vm.runInThisContext', 'vm.runInContext', 'new vm.Script'],
      danger: 'not-constant',
    },
    // the body is the last argument, the parameters' names the others
    { calls: ['new Function', 'Function', 'vm.compileFunction'], argument: 'any', danger: 'not-constant' },
  ],
};
const EVAL_SYNTAX: Partial<Record<SyntaxLanguage, LanguageSyntax>> = {
  javascript: JS_EVAL,
  typescript: JS_EVAL,
  tsx: JS_EVAL,
  python: { sinks: [{ calls: ['eval', 'exec', 'builtins.eval', 'builtins.exec'], danger: 'not-constant' }] },
  ruby: {
    sinks: [
      {
        calls: [
          'eval',
          '.instance_eval',
          '.class_eval',
          '.module_eval',
          'instance_eval',
          'class_eval',
          'module_eval',
          'binding.eval',
          'Kernel.eval',
        ],
        danger: 'not-constant',
      },
    ],
  },
  php: { sinks: [{ calls: ['eval', 'create_function', 'assert'], danger: 'not-constant' }] },
};

export const noEval: LineRule = {
  ...patternRule({
    id: 'no-eval',
    severity: 'warning',
    summary: 'eval(), exec() or new Function() runs a string as code.',
    help: 'Parse the data instead (JSON.parse, a lookup table, a real parser); if the string can come from a user, this is code injection.',
    message:
      'Avoid running a string as code (eval, exec, new Function): code injection if any part comes from input; parse the data instead.',
    files: notFixture((path) => isJavaScript(path) || isPython(path) || isRuby(path) || isPhp(path)),
    keywords: ['eval(', 'eval ', 'eval\t', 'Function'],
    in: 'code',
    pattern: /(?<![\w$.])eval[ \t]*\(|\bnew\s+Function\s*\(/,
  }),
  syntax: {
    keywords: ['eval', 'exec', 'Function', 'vm.', 'Script', 'assert'],
    languages: EVAL_SYNTAX,
  },
};

const JS_EXEC_KEYWORDS = ['exec(', 'exec ', 'exec\t', 'execSync'];

/** exec/execSync of child_process with an interpolated command: a shell runs whatever the variables hold. */
export const noShellInjection: LineRule = {
  kind: 'line',
  id: 'no-shell-injection',
  severity: 'warning',
  summary:
    'A shell command built from variables (exec with a template string or concatenation, subprocess with shell=True).',
  help: 'Pass the program and its arguments separately (execFile / spawn with an argument array; subprocess.run([...]) without shell=True).',
  message:
    'A shell command built from variables runs whatever they contain; pass the program and its arguments as an array (execFile/spawn, subprocess.run([...])).',
  files: notFixture((path) => isJavaScript(path) || isPython(path)),
  keywords: [...JS_EXEC_KEYWORDS, 'shell'],
  keywordsFor: (path) => (isPython(path) ? ['shell'] : JS_EXEC_KEYWORDS),
  check(line) {
    if (isPython(line.path)) {
      const m = /\bshell\s*=\s*True\b/.exec(line.code);
      return m ? spanOf(m) : null;
    }
    // exec(`...${x}...`), execSync('cmd ' + x), child_process.exec(cmd + x)
    const m =
      /(?<![\w$])(?:child_process\.|cp\.)?exec(?:Sync)?[ \t]*\(\s*(?:`[^`]*\$\{|['"][^'"]*['"]\s*\+|[\w$.]+\s*\+)/.exec(
        withoutComment(line),
      );
    if (!m || !isCodeAt(line, m.index)) return null;
    return spanOf(m);
  },
};

export const noInnerHtml = patternRule({
  id: 'no-inner-html',
  severity: 'warning',
  summary: 'HTML assigned from code (innerHTML =, outerHTML =, dangerouslySetInnerHTML, document.write).',
  help: 'Set textContent, build elements with the DOM API, or sanitize the HTML (DOMPurify) before inserting it.',
  message: 'Inserting HTML from code is an XSS risk; use textContent or DOM methods, or sanitize the HTML first.',
  files: notFixture(isJavaScript),
  keywords: ['innerHTML', 'outerHTML', 'dangerouslySetInnerHTML', 'document.write'],
  in: 'code',
  pattern: /\.(?:inner|outer)HTML\s*\+?=(?!=)|\bdangerouslySetInnerHTML\b|\bdocument\.write(?:ln)?\s*\(/,
  // A string literal (innerHTML = '', = '<br>') is markup the code wrote, not data.
  unless: /\.(?:inner|outer)HTML\s*=\s*(?:"[^"\\]*"|'[^'\\]*'|`[^`$\\]*`)\s*(?:;\s*)?(?:\/\/.*)?$/,
});

/** yaml.load without a safe Loader builds arbitrary Python objects from the document. */
export const noUnsafeYamlLoad: LineRule = {
  kind: 'line',
  id: 'no-unsafe-yaml-load',
  severity: 'warning',
  summary: 'yaml.load() without a safe Loader can build arbitrary Python objects from the document.',
  help: 'Use yaml.safe_load(), or pass Loader=yaml.SafeLoader (or CSafeLoader).',
  message:
    'Use yaml.safe_load() (or Loader=yaml.SafeLoader); yaml.load with the default or full Loader can run code from the document.',
  files: notFixture(isPython),
  keywords: ['yaml.load', 'yaml.unsafe_load'],
  check(line) {
    const m = /\byaml\.(?:load|load_all|unsafe_load)\s*\(/.exec(line.code);
    if (!m) return null;
    if (!m[0].includes('unsafe') && /Loader\s*=\s*(?:yaml\.)?C?(?:Safe|Base)Loader\b/.test(line.code)) return null;
    return spanOf(m);
  },
};

const DESERIALIZING =
  'Deserializing this format can run code from the data; only load data you made yourself, and use JSON for anything that crosses a trust boundary.';

/** Deserializers that build arbitrary objects (and so run code) from their input. */
const DESERIALIZE_SYNTAX: Partial<Record<SyntaxLanguage, LanguageSyntax>> = {
  python: {
    sinks: [
      {
        calls: [
          ...['pickle', 'cPickle', '_pickle', 'dill', 'marshal', 'cloudpickle', 'joblib'].flatMap((module) => [
            `${module}.load`,
            `${module}.loads`,
          ]),
          'Unpickler',
          'pickle.Unpickler',
          'shelve.open',
          'jsonpickle.decode',
          'pd.read_pickle',
          'pandas.read_pickle',
        ],
        danger: 'any',
      },
    ],
  },
  ruby: {
    sinks: [
      {
        calls: ['Marshal.load', 'Marshal.restore', 'YAML.unsafe_load', 'Psych.unsafe_load'],
        danger: 'any',
        message: DESERIALIZING,
      },
    ],
  },
  php: { sinks: [{ calls: ['unserialize'], danger: 'not-constant', message: DESERIALIZING }] },
  csharp: {
    sinks: [
      {
        calls: [
          'new BinaryFormatter',
          'new SoapFormatter',
          'new NetDataContractSerializer',
          'new LosFormatter',
          'new ObjectStateFormatter',
        ],
        danger: 'any',
        message: DESERIALIZING,
      },
    ],
  },
  java: {
    sinks: [{ calls: ['new ObjectInputStream', 'new XMLDecoder', '.fromXML'], danger: 'any', message: DESERIALIZING }],
  },
};

export const noPickleLoads: LineRule = {
  ...patternRule({
    id: 'no-pickle-loads',
    severity: 'warning',
    summary:
      'Deserializing into arbitrary objects (pickle, marshal, shelve, dill; Ruby Marshal, PHP unserialize, .NET BinaryFormatter, Java ObjectInputStream): running code from the data.',
    help: 'Only deserialize data you produced yourself and trust; for anything else use JSON or another data-only format.',
    message:
      'Unpickling runs code from the data; only load pickles you made yourself, and use JSON for anything that crosses a trust boundary.',
    files: notFixture((path) => isPython(path) || isRuby(path) || isPhp(path) || isCSharp(path) || isJvm(path)),
    keywords: ['pickle.load', 'dill.load', 'marshal.load', 'Unpickler'],
    in: 'code',
    pattern: /\b(?:c?pickle|dill|marshal)\.loads?\s*\(|\bUnpickler\s*\(/,
  }),
  syntax: {
    keywords: [
      'load',
      'Unpickler',
      'shelve',
      'decode',
      'read_pickle',
      'Marshal',
      'unsafe_load',
      'unserialize',
      'Formatter',
      'Serializer',
      'ObjectInputStream',
      'XMLDecoder',
      'fromXML',
    ],
    languages: DESERIALIZE_SYNTAX,
  },
};

export const riskyApiRules = [noEval, noShellInjection, noInnerHtml, noUnsafeYamlLoad, noPickleLoads];
