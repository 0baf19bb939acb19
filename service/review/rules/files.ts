// Which files a rule applies to, by extension and path. Paths are the new paths of the diff.

const extensionOf = (path: string): string => {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(dot + 1).toLowerCase() : '';
};

export const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

export const byExtension =
  (...extensions: string[]) =>
  (path: string): boolean =>
    extensions.includes(extensionOf(path));

export const anyFile = (_path: string): boolean => true;

export const JS_EXTENSIONS = ['js', 'jsx', 'mjs', 'cjs', 'ts', 'tsx', 'mts', 'cts', 'vue', 'svelte', 'astro'];
export const isJavaScript = byExtension(...JS_EXTENSIONS);
export const isPython = byExtension('py', 'pyw', 'pyi');
export const isRuby = (path: string): boolean => byExtension('rb', 'rake', 'erb')(path) || /(^|\/)(Gemfile|Rakefile)$/.test(path);
export const isRust = byExtension('rs');
export const isTypeScript = byExtension('ts', 'tsx', 'mts', 'cts');

/** Source code in any language we know the comment syntax of (not prose, not data). */
export const isSourceCode = byExtension(
  ...JS_EXTENSIONS, 'py', 'pyw', 'rb', 'rs', 'go', 'java', 'kt', 'kts', 'scala', 'swift', 'c', 'h', 'cc', 'cpp', 'cxx',
  'hpp', 'hh', 'cs', 'php', 'sh', 'bash', 'zsh', 'pl', 'pm', 'lua', 'r', 'dart', 'ex', 'exs', 'erl', 'hs', 'clj',
  'sql', 'groovy', 'gradle', 'tf', 'yaml', 'yml', 'toml', 'ps1', 'm', 'mm', 'fs', 'zig', 'nim', 'jl', 'elm',
);

/** Tests: by folder or by name, in the conventions of the common test runners. */
export const isTestFile = (path: string): boolean =>
  /(^|\/)(__tests__|__mocks__|tests?|spec|specs|e2e|fixtures|testing)\//.test(path) ||
  /\.(test|spec|e2e|cy|stories)\.[a-z]+$/i.test(path) ||
  /(^|\/)(test_[^/]*\.py|[^/]*_test\.(py|go|rb)|conftest\.py|[^/]*_spec\.rb)$/.test(path);

/** Command-line programs and scripts, where printing to the console is the point. */
export const isScriptOrCli = (path: string): boolean =>
  /(^|\/)(scripts?|bin|cli|tools?|examples?|benchmarks?|bench|demos?)\//.test(path) ||
  /(^|\/)(cli|main|__main__|manage|setup|build|gulpfile|gruntfile|webpack\.config|vite\.config|rollup\.config|esbuild\.config)(\.[a-z]+)+$/i.test(path) ||
  /(^|\/)[^/]*[-.]cli\.[a-z]+$/i.test(path) ||
  /\.(sh|bash|zsh)$/.test(path);
