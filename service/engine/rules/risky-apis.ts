// APIs that run text as code or markup, or deserialize untrusted data into objects.
import type { SyntaxLanguage } from '../structure/languages.ts';
import { isCSharp, isGo, isJavaScript, isJvm, isPhp, isPython, isRuby, notFixture, notTestCode } from './files.ts';
import type { AddedLine, LanguageSyntax, LineRule } from './rule.ts';
import { isCodeAt, patternRule, withoutComment, spanOf } from './rule.ts';

/** Calls that run their argument as code: reported unless the argument is a constant. */
const JS_EVAL: LanguageSyntax = {
  sinks: [
    {
      calls: [
        'eval',
        'window.eval',
        'global.eval',
        'globalThis.eval',
        'vm.runInNewContext',
        'vm.runInThisContext',
        'vm.runInContext',
        'vm.compileFunction',
        'new vm.Script',
      ],
      danger: 'not-constant',
    },
    // a string of code run later (a function is fine)
    { calls: ['setTimeout', 'setInterval', 'window.setTimeout', 'window.setInterval'], danger: 'built-string' },
    // the body is the last argument, the parameters' names the others
    { calls: ['new Function', 'Function'], argument: 'any', danger: 'not-constant' },
  ],
};
const EVAL_SYNTAX: Partial<Record<SyntaxLanguage, LanguageSyntax>> = {
  javascript: JS_EVAL,
  typescript: JS_EVAL,
  tsx: JS_EVAL,
  python: {
    sinks: [
      { calls: ['eval', 'exec', 'builtins.eval', 'builtins.exec'], danger: 'not-constant' },
      // exec or eval handed to an executor with its code: loop.run_in_executor(None, exec, code)
      {
        calls: ['.run_in_executor'],
        argument: 2,
        danger: 'not-constant',
        when: /\brun_in_executor\s*\(\s*[^,()]*,\s*(?:builtins\.)?(?:exec|eval)\s*,/,
      },
      {
        calls: ['.submit'],
        argument: 1,
        danger: 'not-constant',
        when: /\bsubmit\s*\(\s*(?:builtins\.)?(?:exec|eval)\s*,/,
      },
    ],
  },
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
          // compiled to bytecode, then run with .eval
          'InstructionSequence.compile',
          'InstructionSequence.new',
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
    keywords: [
      'eval',
      'instance_eval',
      'class_eval',
      'module_eval',
      'exec(',
      'exec ',
      'Function(',
      'Function (',
      'vm.',
      'assert(',
      'create_function',
      'InstructionSequence',
      'run_in_executor',
      'submit(exec',
      'submit(eval',
      // a string of code: the literal is in the call
      ...['setTimeout', 'setInterval'].flatMap((call) => [`${call}('`, `${call}("`, `${call}(\``]),
    ],
    languages: EVAL_SYNTAX,
  },
};

const JS_EXEC_KEYWORDS = ['exec(', 'exec ', 'exec\t', 'execSync'];

/** exec/execSync of child_process with an interpolated command: a shell runs whatever the variables hold. */
/** `sh -c <command>` as a program and its arguments: the command is judged. */
const SH_C = /["'`](?:\/(?:usr\/)?bin\/)?(?:ba|z|da)?sh["'`]\s*,\s*(?:\[\s*)?["'`]-c["'`]/;
const CMD_C = /["'](?:cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)["']\s*,\s*[^,]*["']\/c\b|["'](?:cmd(?:\.exe)?)["']/i;

/** Calls that hand a command line to a shell: reported when the command is not a constant. */
const JS_SHELL: LanguageSyntax = {
  sinks: [
    {
      calls: [
        'child_process.exec',
        'child_process.execSync',
        'cp.exec',
        'cp.execSync',
        'childProcess.exec',
        'childProcess.execSync',
        'exec',
        'execSync',
        'shell.exec',
        'shelljs.exec',
      ],
      danger: 'not-constant',
    },
    {
      calls: ['.spawn', '.spawnSync', '.execFile', '.execFileSync', 'spawn', 'spawnSync', 'execFile', 'execFileSync'],
      when: /\bshell\s*:\s*true\b/,
      danger: 'not-constant',
    },
    {
      calls: ['.spawn', '.spawnSync', '.execFile', '.execFileSync', 'spawn', 'spawnSync', 'execFile', 'execFileSync'],
      when: SH_C,
      argument: 1,
      danger: 'not-constant',
    },
  ],
};
const SHELL_SYNTAX: Partial<Record<SyntaxLanguage, LanguageSyntax>> = {
  javascript: JS_SHELL,
  typescript: JS_SHELL,
  tsx: JS_SHELL,
  python: {
    sinks: [
      {
        calls: [
          'os.system',
          'os.popen',
          'os.popen2',
          'os.popen3',
          'os.popen4',
          'popen2.popen2',
          'popen2.popen3',
          'popen2.popen4',
          'popen2.Popen3',
          'popen2.Popen4',
          'commands.getoutput',
          'commands.getstatusoutput',
          'subprocess.getoutput',
          'subprocess.getstatusoutput',
          '.create_subprocess_shell',
        ],
        danger: 'not-constant',
      },
      { calls: ['.subprocess_shell'], argument: 1, danger: 'not-constant' },
      {
        calls: [
          'subprocess.call',
          'subprocess.run',
          'subprocess.Popen',
          'subprocess.check_call',
          'subprocess.check_output',
          'call',
          'run',
          'Popen',
          'check_call',
          'check_output',
        ],
        when: /\bshell\s*=\s*True\b/,
        danger: 'not-constant',
      },
    ],
  },
  php: {
    sinks: [
      {
        calls: ['exec', 'system', 'passthru', 'shell_exec', 'popen', 'proc_open', 'pcntl_exec'],
        danger: 'not-constant',
      },
    ],
    keywords: ['`'],
    query: '(shell_command_expression) @finding @value',
  },
  ruby: {
    sinks: [
      {
        calls: [
          'system',
          'exec',
          'spawn',
          'Kernel.system',
          'Kernel.exec',
          'Kernel.spawn',
          'IO.popen',
          'Open3.capture2',
          'Open3.capture2e',
          'Open3.capture3',
          'Open3.popen2',
          'Open3.popen2e',
          'Open3.popen3',
          'Open3.pipeline',
        ],
        danger: 'not-constant',
      },
    ],
    keywords: ['`', '%x'],
    query: '(subshell) @finding @value',
  },
  java: {
    sinks: [
      { calls: ['.exec'], argument: 'any', danger: 'not-constant' },
      { calls: ['new ProcessBuilder'], when: SH_C, argument: 'any', danger: 'not-constant' },
    ],
  },
  go: {
    sinks: [
      { calls: ['exec.Command'], when: SH_C, argument: 2, danger: 'not-constant' },
      { calls: ['exec.CommandContext'], when: SH_C, argument: 3, danger: 'not-constant' },
    ],
  },
  csharp: {
    sinks: [{ calls: ['Process.Start', 'new ProcessStartInfo'], when: CMD_C, argument: 'any', danger: 'not-constant' }],
  },
};

export const noShellInjection: LineRule = {
  kind: 'line',
  id: 'no-shell-injection',
  severity: 'warning',
  summary:
    'A shell command built from variables (exec or os.system with a built string, subprocess with shell=True, sh -c with a variable, backticks with interpolation).',
  help: 'Pass the program and its arguments separately (execFile / spawn with an argument array; subprocess.run([...]) without shell=True).',
  message:
    'A shell command built from variables runs whatever they contain; pass the program and its arguments as an array (execFile/spawn, subprocess.run([...])).',
  files: notFixture(
    (path) =>
      isJavaScript(path) ||
      isPython(path) ||
      isPhp(path) ||
      isRuby(path) ||
      isJvm(path) ||
      isGo(path) ||
      isCSharp(path),
  ),
  keywords: [...JS_EXEC_KEYWORDS, 'shell'],
  keywordsFor: (path) => (isPython(path) ? ['shell'] : isJavaScript(path) ? JS_EXEC_KEYWORDS : []),
  syntax: {
    keywords: [
      'exec',
      'shell_exec',
      'pcntl_exec',
      'system',
      'popen',
      'Popen',
      'spawn',
      'spawnSync',
      'shell',
      'passthru',
      'proc_open',
      'Command(',
      'CommandContext(',
      'Process.Start',
      'ProcessStartInfo',
      'getoutput',
      'getstatusoutput',
      'Open3',
      'create_subprocess_shell',
      'subprocess_shell',
    ],
    languages: SHELL_SYNTAX,
  },
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

/** HTML built from a value that is not constant; a sanitizer's output (DOMPurify.sanitize) is fine. */
const HTML_SINKS = `
(assignment_expression
  left: (member_expression property: (property_identifier) @p (#match? @p "^(inner|outer)HTML$"))
  right: (_) @value) @finding
(augmented_assignment_expression
  left: (member_expression property: (property_identifier) @p (#match? @p "^(inner|outer)HTML$"))
  right: (_) @value) @finding
(call_expression
  function: (member_expression object: (identifier) @o (#eq? @o "document") property: (property_identifier) @p (#match? @p "^write(ln)?$"))
  arguments: (arguments . (_) @value)) @finding
(call_expression
  function: (member_expression property: (property_identifier) @p (#eq? @p "insertAdjacentHTML"))
  arguments: (arguments (_) . (_) @value)) @finding
(pair
  key: (property_identifier) @p (#eq? @p "dangerouslySetInnerHTML")
  value: (object (pair key: (property_identifier) @k (#eq? @k "__html") value: (_) @value))) @finding`;
/** React's JSX attribute: in the grammars that read JSX (JavaScript's and TSX's, not TypeScript's); its props object (React.createElement('div', { dangerouslySetInnerHTML: … })) is above. */
const JSX_HTML = `
(jsx_attribute
  (property_identifier) @p (#eq? @p "dangerouslySetInnerHTML")
  (jsx_expression (object (pair key: (property_identifier) @k (#eq? @k "__html") value: (_) @value)))) @finding`;
const JS_HTML: LanguageSyntax = { query: HTML_SINKS + JSX_HTML };

export const noInnerHtml: LineRule = {
  ...patternRule({
    id: 'no-inner-html',
    severity: 'warning',
    summary:
      'HTML built from a value and inserted from code (innerHTML =, outerHTML =, dangerouslySetInnerHTML, document.write, insertAdjacentHTML).',
    help: 'Set textContent, build elements with the DOM API, or sanitize the HTML (DOMPurify) before inserting it.',
    message: 'Inserting HTML from code is an XSS risk; use textContent or DOM methods, or sanitize the HTML first.',
    files: notFixture(isJavaScript),
    keywords: ['innerHTML', 'outerHTML', 'dangerouslySetInnerHTML', 'document.write'],
    in: 'code',
    pattern: /\.(?:inner|outer)HTML\s*\+?=(?!=)|\bdangerouslySetInnerHTML\b|\bdocument\.write(?:ln)?\s*\(/,
    // A string literal (innerHTML = '', = '<br>') is markup the code wrote, not data.
    unless: /\.(?:inner|outer)HTML\s*=\s*(?:"[^"\\]*"|'[^'\\]*'|`[^`$\\]*`)\s*(?:;\s*)?(?:\/\/.*)?$/,
  }),
  syntax: {
    keywords: ['innerHTML', 'outerHTML', 'dangerouslySetInnerHTML', 'document.write', 'insertAdjacentHTML'],
    languages: { javascript: JS_HTML, typescript: { query: HTML_SINKS }, tsx: JS_HTML },
  },
};

/** yaml.load without a safe Loader builds arbitrary Python objects from the document. */
export const noUnsafeYamlLoad: LineRule = {
  kind: 'line',
  id: 'no-unsafe-yaml-load',
  severity: 'warning',
  summary:
    "yaml.load() without a safe Loader (or ruamel.yaml's YAML(typ='unsafe')) can build arbitrary Python objects from the document.",
  help: "Use yaml.safe_load(), or pass Loader=yaml.SafeLoader (or CSafeLoader); with ruamel.yaml, keep the default typ ('rt') or 'safe'.",
  message:
    'Use yaml.safe_load() (or Loader=yaml.SafeLoader); yaml.load with the default or full Loader can run code from the document.',
  files: notFixture(isPython),
  keywords: ['yaml.load', 'yaml.unsafe_load', 'YAML('],
  check(line) {
    const unsafeRuamel = /\bYAML\s*\(\s*typ\s*=\s*["']unsafe["']/.exec(line.text);
    if (unsafeRuamel && isCodeAt(line, unsafeRuamel.index))
      return {
        ...spanOf(unsafeRuamel),
        message:
          "YAML(typ='unsafe') builds arbitrary Python objects from the documents it loads; keep ruamel.yaml's default typ ('rt') or 'safe'.",
      };
    const m = /\byaml\.(?:load|load_all|unsafe_load)\s*\(/.exec(line.code);
    if (!m) return null;
    if (!m[0].includes('unsafe') && /Loader\s*=\s*(?:yaml\.)?C?(?:Safe|Base)Loader\b/.test(line.code)) return null;
    return ruamelInstance(line) ? null : spanOf(m);
  },
};

/** `yaml` is a ruamel.yaml YAML() instance above in the hunk (safe unless typ='unsafe', reported where it is made). */
function ruamelInstance(line: AddedLine): boolean {
  for (let offset = -1; offset >= -RUAMEL_REACH; offset--) {
    const above = line.lineAt(offset);
    if (above === undefined) return false;
    if (/\byaml\s*=\s*(?:ruamel\.yaml\.)?YAML\s*\(/.test(above.text)) return true;
    if (/\byaml\s*=/.test(above.text) || /^\s*import\s+yaml\b/.test(above.text)) return false;
  }
  return false;
}
const RUAMEL_REACH = 30;

const DESERIALIZING =
  'Deserializing this format can run code from the data; only load data you made yourself, and use JSON for anything that crosses a trust boundary.';

/** Deserializers that build arbitrary objects (and so run code) from their input. */
/** node-serialize's unserialize runs the functions it finds in its input. */
const JS_DESERIALIZE: LanguageSyntax = {
  sinks: [
    {
      calls: ['.unserialize'],
      danger: 'not-constant',
      message: 'Deserializing with node-serialize runs functions written in the data; parse JSON instead.',
    },
  ],
};

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
        // data written into the code is the code's own
        danger: 'not-constant',
      },
    ],
  },
  ruby: {
    sinks: [
      {
        calls: [
          'Marshal.load',
          'Marshal.restore',
          'YAML.unsafe_load',
          'Psych.unsafe_load',
          // YAML.load is safe_load since Psych 4 (Ruby 3.1)
          'Oj.object_load',
          // CSV.load makes the objects CSV.dump wrote: any class, with its instance variables set
          'CSV.load',
        ],
        danger: 'not-constant',
        message: DESERIALIZING,
      },
      {
        // Oj's default mode is :object (Ruby objects of any class); with options passed along (a
        // JSON mode, as Oj's README asks for untrusted input) it is not reported
        calls: ['Oj.load'],
        unless: /,/,
        danger: 'not-constant',
        message: DESERIALIZING,
      },
    ],
  },
  javascript: JS_DESERIALIZE,
  typescript: JS_DESERIALIZE,
  tsx: JS_DESERIALIZE,
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
    // tests deserialize what they have just serialized
    files: notTestCode(
      (path) => isPython(path) || isRuby(path) || isPhp(path) || isCSharp(path) || isJvm(path) || isJavaScript(path),
    ),
    keywords: ['pickle.load', 'dill.load', 'marshal.load', 'Unpickler'],
    in: 'code',
    pattern: /\b(?:c?pickle|dill|marshal)\.loads?\s*\(|\bUnpickler\s*\(/,
  }),
  syntax: {
    keywords: [
      'pickle',
      'cPickle',
      '_pickle',
      'cloudpickle',
      'jsonpickle',
      'Unpickler',
      'read_pickle',
      'dill',
      'marshal',
      'shelve',
      'joblib',
      'Marshal',
      'unsafe_load',
      'Oj',
      'CSV.load',
      'unserialize',
      'BinaryFormatter',
      'SoapFormatter',
      'LosFormatter',
      'ObjectStateFormatter',
      'NetDataContractSerializer',
      'ObjectInputStream',
      'XMLDecoder',
      'fromXML',
    ],
    languages: DESERIALIZE_SYNTAX,
  },
};

export const riskyApiRules = [noEval, noShellInjection, noInnerHtml, noUnsafeYamlLoad, noPickleLoads];
