// Debugging leftovers, by language: statements that stop the program in a debugger, and prints
// that were only meant for the person debugging. Matches read the code, not strings or comments.
import {
  baseName,
  isFixture,
  isJavaScript,
  isPython,
  isRuby,
  isRust,
  isScriptOrCli,
  isTestFile,
  notFixture,
} from './files.ts';
import { inDocExample } from './doc-examples.ts';
import type { AddedLine, LineRule } from './rule.ts';
import { patternRule, spanOf } from './rule.ts';

interface LanguagePattern {
  files: (path: string) => boolean;
  keywords: string[];
  pattern: RegExp;
}

const BREAKPOINTS: LanguagePattern[] = [
  { files: isJavaScript, keywords: ['debugger'], pattern: /(?<![\w$.])debugger\b(?!\s*[:=(.])/ },
  {
    files: isPython,
    keywords: ['set_trace', 'breakpoint', 'pdb.run'],
    pattern: /\b(?:i?pdb|pudb|ipdb)\.set_trace\s*\(|(?<![\w.])breakpoint\s*\(\s*\)|\bpdb\.run\s*\(/,
  },
  {
    files: isRuby,
    keywords: ['binding.pry', 'binding.irb', 'byebug', 'debugger'],
    pattern: /\bbinding\.(?:pry|irb)\b|(?<![\w.])byebug\b|(?<![\w.])debugger\b(?!\s*[:=])/,
  },
];

export const noDebugger: LineRule = {
  kind: 'line',
  id: 'no-debugger',
  severity: 'warning',
  summary:
    'A statement that stops in a debugger (debugger, pdb.set_trace, breakpoint(), binding.pry, byebug) was added.',
  help: 'Remove the breakpoint before merging: in production it halts or hangs the program wherever a debugger or a terminal is attached.',
  message: 'Remove the debugger statement before merging; it stops the program wherever a debugger is attached.',
  files: notFixture((path) => BREAKPOINTS.some((language) => language.files(path))),
  keywords: [...new Set(BREAKPOINTS.flatMap((language) => language.keywords))],
  // The languages' extensions do not overlap: a file has the keywords of one.
  keywordsFor: (path) => BREAKPOINTS.find((language) => language.files(path))?.keywords ?? [],
  check(line) {
    for (const language of BREAKPOINTS) {
      if (!language.files(line.path)) continue;
      const m = language.pattern.exec(line.code);
      if (m) return spanOf(m);
    }
    return null;
  },
};

export const noDbgMacro = patternRule({
  id: 'no-dbg-macro',
  severity: 'warning',
  summary: 'A Rust dbg!() macro call was added.',
  help: "Remove dbg!() before merging, or log through the crate's logger; dbg! writes to stderr in release builds too.",
  message: 'Remove the dbg!() call before merging; it prints to stderr in release builds too.',
  files: notFixture(isRust),
  keywords: ['dbg!'],
  in: 'code',
  pattern: /(?<![\w:])dbg!\s*[([]/,
});

const consoleLog = patternRule({
  id: 'no-console-log',
  severity: 'info',
  summary:
    'console.log (or .debug/.trace/.dir) in library or application code, outside CLIs, scripts, examples and tests.',
  help: "Remove the debugging output, or use the project's logger so that output has a level and can be turned off.",
  message:
    "Remove this console output or use the project's logger; console.log in application code is usually a debugging leftover.",
  files: (path) =>
    isJavaScript(path) && !isTestFile(path) && !isScriptOrCli(path) && !isFixture(path) && !isLoggerModule(path),
  keywords: ['console.log', 'console.debug', 'console.trace', 'console.dir', 'console.table'],
  in: 'code',
  pattern: /(?<![\w$.])console\.(?:log|debug|trace|dir|table)\s*\(/,
  // A log function's sink ("if (level === 'info') console.log(line)", "console.log(...args)") is output by design.
  unless: /\b(?:level|logLevel|severity)\b|\bconsole\.\w+\(\s*\.\.\.\w+\s*\)|\bconsole\.\w+\.apply\b/,
});

/** A logger's own module (log.ts, logger.js, logging.mjs): it writes to the console by design. */
const isLoggerModule = (path: string): boolean =>
  /^(?:log|logger|logging|console)(?:[.-][\w-]+)?\.[cm]?[jt]sx?$/i.test(baseName(path));

/** A definition named like a logger or a log level: class Logger, const logger = {, info(msg) {, warn: (m) =>, function debugLog(. */
// Bounded runs: a name is short, and an unbounded \w* before a literal would backtrack over a long word.
const LOGGER_NAME = String.raw`(?:log(?:[A-Z_]\w{0,60})?|logger|\w{0,60}(?:Log|Logger|_log|_logger)\w{0,60})`;
const LOGGER_DEFINITION = new RegExp(
  [
    String.raw`\bclass\s+\w{0,60}Log(?:ger)?\w{0,60}\b`,
    String.raw`\b(?:const|let|var)\s+${LOGGER_NAME}\s*(?::[^=]{0,80})?=\s*(?:\{|\(|function\b|async\b|\w+\s*=>|new\b)`,
    String.raw`^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*${LOGGER_NAME}\s*\(`,
    String.raw`^\s*(?:(?:static|public|private|protected|async|override)\s+)*["']?(?:debug|info|warn|warning|error|trace|fatal|${LOGGER_NAME})["']?\s*(?:\([^)]{0,200}\)\s*(?::[^{]{0,80})?\{|[:=]\s*(?:async\s*)?(?:function\b|\([^)]{0,200}\)\s*(?::[^=]{0,80})?=>|\w+\s*=>))`,
  ].join('|'),
);
/** How many lines up the enclosing definitions are looked for. */
const LOGGER_REACH = 40;

const indentOf = (text: string): number => text.length - text.trimStart().length;

/**
 * The line is inside a logger's own definition, as far as the hunk shows: the line itself or an
 * enclosing line above (one indented less than everything below it) defines a logger, a log
 * function or a log-level method. Its console output is the logger's sink, not a leftover.
 */
function inLoggerDefinition(line: AddedLine): boolean {
  if (LOGGER_DEFINITION.test(line.text)) return true;
  let indent = indentOf(line.text);
  for (let offset = -1; offset >= -LOGGER_REACH && indent > 0; offset--) {
    const above = line.lineAt(offset);
    if (above === undefined) return false;
    if (above.kind === '-' || above.text.trim() === '') continue;
    const own = indentOf(above.text);
    if (own >= indent) continue;
    if (LOGGER_DEFINITION.test(above.text)) return true;
    indent = own;
  }
  return false;
}

/**
 * Not in a JSDoc @example or a fenced code block (also one whose opener lies above the hunk), nor
 * in a logger's own definition.
 */
export const noConsoleLog: LineRule = {
  ...consoleLog,
  check(line) {
    const match = consoleLog.check(line);
    return match && !inDocExample(line) && !inLoggerDefinition(line) ? match : null;
  },
};

/** Python files whose job is to print: scripts, `__main__.py`, entry points, tests. */
const isPythonLibraryCode = (path: string): boolean =>
  isPython(path) &&
  !isTestFile(path) &&
  !isScriptOrCli(path) &&
  !isFixture(path) &&
  !/^(__main__|setup|manage|noxfile|fabfile|tasks)\.py$/.test(baseName(path));

export const noPrint = patternRule({
  id: 'no-print',
  severity: 'info',
  summary: 'print() in Python library code (not scripts, __main__ modules or tests).',
  help: 'Remove the debugging print, or use the logging module (logger = logging.getLogger(__name__)).',
  message: 'Remove this print() or use the logging module; print in library code is usually a debugging leftover.',
  files: isPythonLibraryCode,
  keywords: ['print'],
  in: 'code',
  pattern: /(?<![\w.])print\s*\(/,
});

export const debuggingRules = [noDebugger, noDbgMacro, noConsoleLog, noPrint];
