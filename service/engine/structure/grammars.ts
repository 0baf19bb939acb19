// tree-sitter's WebAssembly runtime and grammars (@vscode/tree-sitter-wasm, the VS Code team's
// build), loaded on first use: a review of Markdown and YAML loads none, a review of Python loads
// the runtime and the Python grammar (once per process or worker thread).
//
// Where the .wasm files are: the bundles of the extension and the desktop app carry the ones
// they need in a `grammars` folder beside their code (no node_modules there); elsewhere (the CLI,
// the tests) the package's own folder.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language, Parser } from '@vscode/tree-sitter-wasm';
import type { TreeLanguage } from './languages.ts';
import { PROFILES } from './languages.ts';

type TreeSitter = typeof import('@vscode/tree-sitter-wasm');

/** The folder of tree-sitter.wasm and the grammars' .wasm files (DIFF_REVIEW_GRAMMARS names another, for packagers). */
export function grammarFolder(): string {
  if (process.env.DIFF_REVIEW_GRAMMARS) return process.env.DIFF_REVIEW_GRAMMARS;
  const beside = fileURLToPath(new URL('./grammars/', import.meta.url));
  if (existsSync(path.join(beside, 'tree-sitter.wasm'))) return beside;
  return path.dirname(createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm'));
}

let runtime: Promise<TreeSitter> | undefined;
/** One parser per language and thread: a review parses its hunks one after another. */
const parsers = new Map<TreeLanguage, Promise<LoadedGrammar>>();

export interface LoadedGrammar {
  parser: Parser;
  language: Language;
  treeSitter: TreeSitter;
}

function loadRuntime(): Promise<TreeSitter> {
  runtime ??= (async () => {
    const folder = grammarFolder();
    const module = await import('@vscode/tree-sitter-wasm');
    // CommonJS seen from ESM: the exports are the default export (a bundle may already unwrap it)
    const treeSitter: TreeSitter = 'default' in module ? (module.default as TreeSitter) : module;
    await treeSitter.Parser.init({ locateFile: (file: string) => path.join(folder, file) });
    return treeSitter;
  })();
  return runtime;
}

/** A parser for the language; rejects when its grammar cannot be loaded (the caller names the file as not analysed). */
export function grammarFor(language: TreeLanguage): Promise<LoadedGrammar> {
  let loaded = parsers.get(language);
  if (!loaded) {
    loaded = (async () => {
      const treeSitter = await loadRuntime();
      const bytes = await readFile(path.join(grammarFolder(), `tree-sitter-${PROFILES[language].grammar}.wasm`));
      const grammar = await treeSitter.Language.load(bytes);
      const parser = new treeSitter.Parser();
      parser.setLanguage(grammar);
      return { parser, language: grammar, treeSitter };
    })();
    parsers.set(language, loaded);
  }
  return loaded;
}

/** Every grammar file the stage may load: what the bundles copy beside their code. */
export const GRAMMAR_FILES: readonly string[] = [
  'tree-sitter.wasm',
  ...new Set(Object.values(PROFILES).map((profile) => `tree-sitter-${profile.grammar}.wasm`)),
];

/** A hunk taking longer than this to parse is left: far past what a megabyte of code takes (test/bench/README.md). */
export const HUNK_PARSE_BUDGET_MS = 5000;
