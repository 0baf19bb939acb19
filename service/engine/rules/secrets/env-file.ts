// A .env file added to the repository: its values are the environment's secrets.
import { baseName, isFixture, isTestFile } from '../files.ts';
import type { LineRule } from '../rule.ts';
import { isReference } from './placeholders.ts';

/** `.env`, `.env.local`, `.env.production`, ... but not the documented templates. */
const isDotEnv = (path: string): boolean => {
  const name = baseName(path);
  return /^\.env(\.[\w-]+)?$/.test(name) && !/\.(example|sample|template|dist|defaults?|schema|tpl)$/.test(name);
};

/** NAME=value, export NAME=value: a line of a .env file that holds a value (the value's span in `value`). */
const ENV_ASSIGNMENT = /^[ \t]*(?:export[ \t]+)?[A-Za-z_][\w.-]*[ \t]*=[ \t]*(?<value>\S(?:.*\S)?)?[ \t]*$/d;

/**
 * A .env file in the change: one problem, reported once, on the first line that holds a value
 * (so that the reviewer sees what would leak, and the value stays out of the fingerprint), saying
 * how many lines hold one. Test apps' .env files are test data.
 */
export const noEnvFile: LineRule = {
  kind: 'line',
  id: 'no-env-file',
  severity: 'error',
  summary: 'A .env file (environment secrets) with values was added to the repository.',
  help: 'Remove the file from the change, add it to .gitignore, and commit a .env.example without values instead. Rotate any secret it held.',
  message:
    'A .env file with values was added; remove it from the change, add it to .gitignore and commit a .env.example without values instead.',
  files: (path) => isDotEnv(path) && !isTestFile(path) && !isFixture(path),
  // .env files are short: every added line is read.
  keywords: [],
  oncePerFile: { more: (lines) => `${lines} lines of this file hold values.` },
  reads: 'text',
  check(line) {
    const m = ENV_ASSIGNMENT.exec(line.text);
    const span = m?.indices?.groups?.['value'];
    if (!span) return null;
    const value = line.text.slice(span[0], span[1]).replace(/^(["'])(.*)\1$/, '$2');
    if (value === '' || isReference(value)) return null;
    return { column: span[0] + 1, endColumn: span[1] + 1, secret: { start: span[0], end: span[1] } };
  },
};
