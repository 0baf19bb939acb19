// Which files a rule applies to, by extension and path. Paths are the new paths of the diff.
import { JS_EXTENSIONS, SOURCE_EXTENSIONS } from './languages.ts';

/** The engine asks every rule about one path in a row: remember the last answer. */
export function lastPathMemo<T>(compute: (path: string) => T): (path: string) => T {
  let lastPath: string | null = null;
  let lastValue: T;
  return (path) => {
    if (path !== lastPath) {
      lastValue = compute(path);
      lastPath = path;
    }
    return lastValue;
  };
}

const extensionOf = lastPathMemo((path: string): string => {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(dot + 1).toLowerCase() : '';
});

export const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

export const byExtension = (...extensions: string[]): ((path: string) => boolean) => {
  const set = new Set(extensions);
  return (path) => set.has(extensionOf(path));
};

export const anyFile = (_path: string): boolean => true;

export const isJavaScript = byExtension(...JS_EXTENSIONS);
export const isPython = byExtension('py', 'pyw', 'pyi');
export const isRuby = (path: string): boolean =>
  byExtension('rb', 'rake', 'erb')(path) || /(^|\/)(Gemfile|Rakefile)$/.test(path);
export const isRust = byExtension('rs');
export const isTypeScript = byExtension('ts', 'tsx', 'mts', 'cts');

/** Source code in any language we know (not prose, not data): languages.ts. */
export const isSourceCode = byExtension(...SOURCE_EXTENSIONS);

/**
 * What every test or fixture path below holds (in any case): most paths have none of it, and one
 * regex rules them out instead of five. It runs for each file of a diff in a row of rules.
 */
const TEST_OR_FIXTURE_WORD = /test|spec|mock|e2e|fixture|\.cy\.|stories|snapshot/i;

/** Tests: by folder or by name, in the conventions of the common test runners. */
export const isTestFile = lastPathMemo(
  (path: string): boolean =>
    TEST_OR_FIXTURE_WORD.test(path) &&
    (/(^|\/)(__tests__|__mocks__|tests?|spec|specs|e2e|fixtures|testing)\//.test(path) ||
      /\.(test|spec|e2e|cy|stories)\.[a-z]+$/i.test(path) ||
      /^(test_.*\.py|.*_test\.(py|go|rb)|conftest\.py|.*_spec\.rb)$/.test(baseName(path))),
);

/** Data for tests (fixtures, snapshots, recorded responses): not code that runs, so code rules do not apply. */
export const isFixture = lastPathMemo(
  (path: string): boolean =>
    TEST_OR_FIXTURE_WORD.test(path) &&
    (/(^|\/)(fixtures?|__fixtures__|testdata|test-data|__snapshots__)\//.test(path) ||
      /(^|\/|[.-])fixtures?\.[a-z]+$/i.test(path)),
);

/**
 * Third-party code kept in the repository (vendor/, third_party/, a committed coverage report,
 * minified bundles): the change did not write it and will not fix it, so code rules do not read it.
 */
export const isVendored = lastPathMemo(
  (path: string): boolean =>
    /(^|\/)(?:vendor|vendors|third_party|third-party|bower_components|node_modules|coverage)\//.test(path) ||
    /[.-]min\.(?:js|css|mjs)$/.test(path),
);

/** Source code a rule about code reads: not fixtures, not vendored code. */
export const notFixture =
  (files: (path: string) => boolean) =>
  (path: string): boolean =>
    files(path) && !isFixture(path) && !isVendored(path);

/** Command-line programs and scripts, where printing to the console is the point. */
export const isScriptOrCli = lastPathMemo(
  (path: string): boolean =>
    /(^|\/)(scripts?|bin|cli|tools?|examples?|benchmarks?|bench|demos?|playgrounds?|build)\//.test(path) ||
    /(^|\/)(cli|main|__main__|manage|setup|build|gulpfile|gruntfile|webpack\.config|vite\.config|rollup\.config|esbuild\.config)(\.[a-z]+)+$/i.test(
      path,
    ) ||
    /(^|\/)[^/]*[-.]cli\.[a-z]+$/i.test(path) ||
    /\.(sh|bash|zsh)$/.test(path),
);

export const isYaml = byExtension('yml', 'yaml');
export const isJson = byExtension('json');
export const isGo = byExtension('go');
export const isJvm = byExtension('java', 'kt', 'kts', 'scala', 'groovy');
export const isPhp = byExtension('php');
export const isCSharp = byExtension('cs');
/** A GitHub Actions workflow (or a composite action's definition). */
export const isGitHubWorkflow = lastPathMemo(
  (path: string): boolean => /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(path) || /(^|\/)action\.ya?ml$/.test(path),
);
export const isDockerfile = lastPathMemo(
  (path: string): boolean =>
    /(^|\/)(?:Dockerfile|Containerfile)(?:\.[\w.-]+)?$/.test(path) || /\.dockerfile$/i.test(path),
);
const hasShellExtension = byExtension('sh', 'bash', 'zsh', 'ksh', 'mk', 'yml', 'yaml', 'ps1');
/** Where shell commands are written: scripts, Dockerfiles, Makefiles, CI configuration. */
export const isShellContext = lastPathMemo(
  (path: string): boolean =>
    hasShellExtension(path) ||
    isDockerfile(path) ||
    /(^|\/)(?:Makefile|GNUmakefile|Jenkinsfile|Vagrantfile)$/.test(path),
);
/** Code that runs in production, not its tests and fixtures (nor vendored code). */
export const notTestCode =
  (files: (path: string) => boolean) =>
  (path: string): boolean =>
    files(path) && !isTestFile(path) && !isFixture(path) && !isVendored(path);
