// Reads a repository's `.diff-review.yml` (or `.yaml`, `.json`, or the --config file) and checks
// it against the config schema. The file is untrusted input: it is parsed as plain data (YAML's
// core schema, no custom tags, aliases capped) and only selects and grades rules; it runs nothing.
// Every error names the file, the line and the valid choices.
import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Document } from 'yaml';
import { UsageError } from '../cli/exit-codes.ts';
import { readUserFile } from '../cli/user-file.ts';
import { checkConfig } from './check-config.ts';
import type { RuleSetting } from './config-schema.ts';

export const CONFIG_FILE_NAMES = ['.diff-review.yml', '.diff-review.yaml', '.diff-review.json'] as const;

export interface ProjectConfig {
  /** The file read, or undefined when the repository has none. */
  file?: string;
  /** Rule id → its setting; rules not named keep their default. */
  rules: Record<string, RuleSetting>;
  /** Gitignore-style patterns of paths whose findings are not reported. */
  ignore: string[];
  /** Rule settings for some paths, over `rules`; the last entry that matches a file wins. */
  overrides: { files: string[]; rules: Record<string, RuleSetting> }[];
  /** How inline suppressions are judged; keys left out keep their defaults. */
  suppressions?: { require_reason?: boolean; other_tools?: boolean };
  /** Findings of one rule in one file shown before the rest fold into one entry (text, github, gitlab); 0 never folds. */
  fold?: number;
}

/** A bad config file: exit 2, the message says where. */
export class ConfigError extends UsageError {
  override name = 'ConfigError';
}

/** More aliases than this is an attack (a "billion laughs"), not a config. */
const MAX_ALIASES = 50;

/**
 * The config of the repository at `root`: the `explicit` file (relative to `cwd`) when given, else
 * the one config file at the root, else an empty config.
 */
export async function loadProjectConfig(
  root: string,
  options: { explicit?: string; cwd?: string } = {},
): Promise<ProjectConfig> {
  const cwd = options.cwd ?? process.cwd();
  const file = options.explicit !== undefined ? resolve(cwd, options.explicit) : await findConfigFile(root, cwd);
  if (file === undefined) return { rules: {}, ignore: [], overrides: [] };
  const shown = displayPath(file, cwd);
  const text = await readUserFile(
    file,
    `${options.explicit !== undefined ? '--config ' : ''}${shown}`,
    'a config file',
    {
      error: ConfigError,
    },
  );
  return { file, ...(await parseProjectConfig(text, shown)) };
}

/**
 * Parses and checks a config file's text; `name` is what errors call the file. The parser is
 * imported only when there is a file to read (its load time: test/bench/README.md, figures behind the code).
 */
export async function parseProjectConfig(text: string, name: string): Promise<Omit<ProjectConfig, 'file'>> {
  const yaml = await import('yaml');
  const lines = new yaml.LineCounter();
  const document = yaml.parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => `${name}:${lines.linePos(offset).line}`;
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem) throw new ConfigError(`${at(problem.pos[0])}: ${problem.message.split('\n')[0]}.`);
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw new ConfigError(`${name}: ${(error as Error).message}.`);
  }
  value ??= {}; // an empty file: no settings
  const invalid = checkConfig(value);
  if (invalid) throw new ConfigError(`${at(offsetOf(yaml, document, invalid.path, invalid.key))}: ${invalid.message}`);
  const config = value as Partial<Omit<ProjectConfig, 'file'>>;
  return {
    rules: config.rules ?? {},
    ignore: config.ignore ?? [],
    overrides: config.overrides ?? [],
    ...(config.suppressions !== undefined ? { suppressions: config.suppressions } : {}),
    ...(config.fold !== undefined ? { fold: config.fold } : {}),
  };
}

/** Where the value at `path` (or, with `key`, that key of the mapping at `path`) begins. */
function offsetOf(yaml: typeof import('yaml'), document: Document, path: string[], key?: string): number {
  const node = path.length === 0 ? document.contents : document.getIn(path, true);
  if (key !== undefined && yaml.isMap(node)) {
    const pair = node.items.find((item) => yaml.isScalar(item.key) && String(item.key.value) === key);
    const keyNode = pair?.key as { range?: [number, number, number] } | undefined;
    if (keyNode?.range) return keyNode.range[0];
  }
  return (node as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
}

async function findConfigFile(root: string, cwd: string): Promise<string | undefined> {
  const found: string[] = [];
  for (const name of CONFIG_FILE_NAMES) {
    const file = join(root, name);
    const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw new ConfigError(`${displayPath(file, cwd)}: ${error.message}.`);
    });
    if (info?.isDirectory()) throw new ConfigError(`${displayPath(file, cwd)}: is a folder, not a config file.`);
    if (info) found.push(file);
  }
  if (found.length > 1)
    throw new ConfigError(
      `${found.map((f) => displayPath(f, cwd)).join(' and ')}: more than one config file; keep one.`,
    );
  return found[0];
}

function displayPath(file: string, cwd: string): string {
  const shown = relative(cwd, file);
  return shown === '' || shown.startsWith('..') || isAbsolute(shown) ? file : shown;
}
