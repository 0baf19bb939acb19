// The project config (.diff-review.yml / .yaml / .json, --config FILE): rule settings and ignored
// paths change what is reported and what the exit code counts; a bad file exits 2 naming the file,
// the line and the valid choices; the file is data and runs nothing. The built CLI, real repos.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkConfig } from '../../../service/project-config/check-config.ts';
import { CONFIG_SCHEMA } from '../../../service/project-config/config-schema.ts';
import { CONFIG_SCHEMA_FILE } from '../../../service/project-config/write-config-schema.ts';
import { RULES } from '../../../service/engine/index.ts';
import { buildCli, FAKE_GITHUB_TOKEN, git, makeRepo, runCli, type TestRepo } from './review-cli.ts';

const repos: TestRepo[] = [];
beforeAll(buildCli, 60_000);
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

/** A branch that adds a secret (error), a debugger statement (warning) and a TODO (info) in each of `files`. */
function repoWithFindings(files = ['src/app.js']): TestRepo {
  const r = makeRepo();
  repos.push(r);
  for (const file of files) r.write(file, `const token = "${FAKE_GITHUB_TOKEN}";\ndebugger;\n// TODO later\n`);
  r.commit('work');
  return r;
}

interface JsonReport {
  findings: { rule_id: string; severity: string; file_path: string }[];
  summary: { ignored_files: number; ignored_by_config: number };
}
const review = async (r: TestRepo, ...args: string[]) => {
  const run = await runCli(['review', '--format', 'json', ...args], { cwd: r.dir });
  return { ...run, report: run.code === 0 || run.code === 1 ? (JSON.parse(run.stdout) as JsonReport) : undefined };
};
const found = (report: JsonReport | undefined) =>
  report!.findings.map((f) => `${f.file_path} ${f.rule_id} ${f.severity}`);

describe('project config: rules', () => {
  it('off removes a rule; a severity regrades it, and the exit code counts the configured severity', async () => {
    const r = repoWithFindings();
    const before = await review(r);
    expect(found(before.report)).toEqual([
      'src/app.js secret error',
      'src/app.js no-debugger warning',
      'src/app.js todo-without-issue info',
    ]);
    expect(before.code).toBe(1);

    r.write('.diff-review.yml', 'rules:\n  secret: info\n  no-debugger: error\n  todo-without-issue: off\n');
    const after = await review(r);
    expect(found(after.report)).toEqual(['src/app.js secret info', 'src/app.js no-debugger error']);
    expect(after.code).toBe(1); // no-debugger is an error now

    r.write('.diff-review.yml', 'rules:\n  secret: warning\n  no-debugger: off\n');
    const relaxed = await review(r);
    expect(found(relaxed.report)).toEqual(['src/app.js secret warning', 'src/app.js todo-without-issue info']);
    expect(relaxed.code).toBe(0); // nothing at error any more
    expect((await review(r, '--fail-on', 'warning')).code).toBe(1);
  });

  it('.yaml and .json are read too; --config FILE replaces the root file; a subfolder finds the root file', async () => {
    const r = repoWithFindings();
    r.write('.diff-review.yaml', 'rules: { no-debugger: off }\n');
    expect(found((await review(r)).report)).not.toContain('src/app.js no-debugger warning');

    const json = makeRepo();
    repos.push(json);
    json.write('src/app.js', 'debugger;\n');
    json.commit('work');
    json.write('.diff-review.json', '{ "rules": { "no-debugger": "error" } }\n');
    expect(found((await review(json)).report)).toEqual(['src/app.js no-debugger error']);

    json.write('ci/strict.yml', 'rules:\n  no-debugger: off\n');
    expect(found((await review(json, '--config', 'ci/strict.yml')).report)).toEqual([]);

    mkdirSync(join(json.dir, 'src/deep'), { recursive: true });
    const fromSubfolder = await runCli(['review', '--format', 'json'], { cwd: join(json.dir, 'src/deep') });
    expect(found(JSON.parse(fromSubfolder.stdout))).toEqual(['src/app.js no-debugger error']);
  });

  it('an empty config file changes nothing', async () => {
    const r = repoWithFindings();
    r.write('.diff-review.yml', '# nothing configured yet\n');
    const run = await review(r);
    expect(run.stderr).toBe('');
    expect(found(run.report)).toHaveLength(3);
  });

  it('--diff outside a repository reads the config of the current folder', async () => {
    const r = repoWithFindings();
    const diff = git(r.dir, 'diff', 'main...HEAD');
    const folder = mkdtempSync(join(tmpdir(), 'diff-review-not-a-repo-'));
    repos.push({ dir: folder, cleanup: () => rmSync(folder, { recursive: true, force: true }) } as TestRepo);
    writeFileSync(join(folder, '.diff-review.yml'), 'rules:\n  secret: off\n');
    writeFileSync(join(folder, 'change.diff'), diff);
    const run = await runCli(['review', '--format', 'json', '--diff', 'change.diff'], { cwd: folder });
    expect(found(JSON.parse(run.stdout))).toEqual([
      'src/app.js no-debugger warning',
      'src/app.js todo-without-issue info',
    ]);
  });
});

describe('project config: ignore', () => {
  it('gitignore-style globs leave files out of the review: their findings never count for the exit code', async () => {
    // (not vendor/ or *.min.js: code rules do not read vendored code in any case)
    const r = repoWithFindings(['src/app.js', 'legacy/lib.js', 'legacy/keep.js', 'dist/deep/out.bundle.js']);
    const unconfigured = (await review(r)).report!.findings;
    const inIgnoredPaths = unconfigured.filter(
      (f) => f.file_path === 'legacy/lib.js' || f.file_path.endsWith('.bundle.js'),
    );
    expect(inIgnoredPaths.length).toBeGreaterThanOrEqual(6);
    r.write('.diff-review.yml', 'ignore:\n  - legacy/*\n  - "!legacy/keep.js"\n  - "*.bundle.js"\n');
    const run = await review(r);
    expect([...new Set(run.report!.findings.map((f) => f.file_path))]).toEqual(['legacy/keep.js', 'src/app.js']);
    expect(run.report!.summary).toMatchObject({ ignored_files: 2, ignored_by_config: 0 });

    r.write('.diff-review.yml', 'ignore: ["*"]\n');
    const all = await review(r);
    expect(all.report!.findings).toEqual([]);
    expect(all.code).toBe(0); // the secrets are in ignored paths: nothing counts
    const text = await runCli(['review'], { cwd: r.dir });
    expect(text.stdout).toContain('No findings (0 files, 0 added lines, 4 files in ignored paths not reviewed, ');
  });

  it('a pattern matches at the exact path and not one character past it', async () => {
    const r = repoWithFindings(['src/a.js', 'src/ab.js']);
    r.write('.diff-review.yml', 'ignore: [src/a.js]\n');
    expect([...new Set((await review(r)).report!.findings.map((f) => f.file_path))]).toEqual(['src/ab.js']);
  });
});

describe('project config: overrides', () => {
  it('rule settings for some paths only: the last matching entry wins, elsewhere `rules` applies', async () => {
    const r = repoWithFindings(['src/app.js', 'tests/app.test.js', 'scripts/release.js']);
    r.write(
      '.diff-review.yml',
      [
        'rules:',
        '  todo-without-issue: off',
        'overrides:',
        '  - files: [tests/]',
        '    rules:',
        '      no-debugger: off',
        '      secret: warning',
        '  - files: ["scripts/**"]',
        '    rules:',
        '      secret: off',
        '      todo-without-issue: info',
        '',
      ].join('\n'),
    );
    const run = await review(r);
    expect(found(run.report)).toEqual([
      // todo-without-issue is off everywhere but here: it still runs, and is kept only here
      'scripts/release.js no-debugger warning',
      'scripts/release.js todo-without-issue info',
      'src/app.js secret error',
      'src/app.js no-debugger warning',
      'tests/app.test.js secret warning',
    ]);
    expect(run.code).toBe(1);
  });
});

describe('project config: errors name the file, the line and the valid choices (exit 2)', () => {
  const cases: [string, string, RegExp][] = [
    [
      'unknown key',
      'rules:\n  no-debugger: off\nignored:\n  - x\n',
      /\.diff-review\.yml:3: unknown key "ignored"\. Valid keys: \$schema, rules, ignore, overrides, suppressions, fold\./,
    ],
    [
      'unknown rule id',
      'rules:\n  no-debugger: off\n  no-debuger: error\n',
      /\.diff-review\.yml:3: unknown rule "no-debuger"\. Valid rule ids: .*no-debugger.*secret/,
    ],
    ['rule ids are case-sensitive', 'rules:\n  No-Debugger: off\n', /\.diff-review\.yml:2: unknown rule "No-Debugger"/],
    [
      'bad setting',
      'rules:\n\n  no-debugger: critical\n',
      /\.diff-review\.yml:3: rules\.no-debugger must be one of off, error, warning, info\./,
    ],
    ['ignore not a list', 'ignore: vendor/\n', /\.diff-review\.yml:1: ignore must be a list\./],
    [
      'ignore item not a string',
      'ignore:\n  - vendor/\n  - 42\n',
      /\.diff-review\.yml:3: ignore\[1\] must be a string\./,
    ],
    ['empty pattern', 'ignore:\n  - ""\n', /\.diff-review\.yml:2: ignore\[0\] must not be empty\./],
    ['not a mapping', '- rules\n', /\.diff-review\.yml:1: the file must be a mapping/],
    [
      'unknown key in suppressions',
      'suppressions:\n  require_reasons: true\n',
      /\.diff-review\.yml:2: unknown key "require_reasons" in suppressions\. Valid keys: require_reason, other_tools\./,
    ],
    [
      'a suppression setting not true or false',
      'suppressions:\n  other_tools: "no"\n',
      /\.diff-review\.yml:2: suppressions\.other_tools must be true or false\./,
    ],
    ['fold below 0', 'fold: -1\n', /\.diff-review\.yml:1: fold must be a whole number, 0 or more\./],
    ['fold not whole', 'fold: 2.5\n', /\.diff-review\.yml:1: fold must be a whole number, 0 or more\./],
    [
      'unknown rule in an override',
      'overrides:\n  - files: [tests/]\n    rules:\n      no-debuger: off\n',
      /\.diff-review\.yml:4: unknown rule "no-debuger"\. Valid rule ids: .*no-debugger/,
    ],
    [
      'unknown key in an override',
      'overrides:\n  - files: [tests/]\n    rule:\n      no-debugger: off\n',
      /\.diff-review\.yml:3: unknown key "rule" in overrides\[0\]\. Valid keys: files, rules\./,
    ],
    [
      'an override without files',
      'overrides:\n  - rules:\n      no-debugger: off\n',
      /\.diff-review\.yml:2: overrides\[0\] needs files/,
    ],
    [
      'an override with no paths',
      'overrides:\n  - files: []\n    rules: {}\n',
      /\.diff-review\.yml:2: overrides\[0\]\.files must not be empty\./,
    ],
    [
      'YAML syntax',
      'rules:\n  no-debugger: off\n\tsecret: off\n',
      /\.diff-review\.yml:3: Tabs are not allowed as indentation\./,
    ],
    [
      'duplicate key',
      'rules:\n  no-debugger: off\nrules:\n  secret: off\n',
      /\.diff-review\.yml:3: Map keys must be unique/,
    ],
  ];
  for (const [name, text, message] of cases) {
    it(name, async () => {
      const r = repoWithFindings();
      r.write('.diff-review.yml', text);
      const run = await review(r);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    });
  }

  it('JSON files get lines too; two config files, a missing --config file: exit 2', async () => {
    const r = repoWithFindings();
    r.write('.diff-review.json', '{\n  "rules": {\n    "nope": "off"\n  }\n}\n');
    const json = await review(r);
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(/\.diff-review\.json:3: unknown rule "nope"/);

    r.write('.diff-review.yml', 'rules: {}\n');
    const two = await review(r);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/\.diff-review\.yml and \.diff-review\.json: more than one config file; keep one\./);

    const missing = await review(r, '--config', 'nowhere.yml');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--config nowhere\.yml: no such file\./);
  });
});

describe('project config: untrusted input', () => {
  it('a tag that would build code in other YAML loaders is refused, and nothing runs', async () => {
    const r = repoWithFindings();
    const marker = join(r.dir, 'pwned');
    r.write(
      '.diff-review.yml',
      `ignore:\n  - !!js/function "function () { require('fs').writeFileSync('${marker}', 'x') }"\n`,
    );
    const run = await review(r);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\.diff-review\.yml:2: Unresolved tag: tag:yaml\.org,2002:js\/function/);
    expect(existsSync(marker)).toBe(false);
  });

  it('an alias bomb ("billion laughs") is refused, not expanded', async () => {
    const r = repoWithFindings();
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    r.write('.diff-review.yml', `${levels.join('\n')}\nignore: *i\n`);
    const run = await review(r);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\.diff-review\.yml: .*alias/i);
  });
});

describe('project config: the JSON Schema that ships in the package', () => {
  const file = CONFIG_SCHEMA_FILE;

  it('is the schema the CLI validates with (rewrite it: node service/project-config/write-config-schema.ts)', () => {
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(CONFIG_SCHEMA);
  });

  it('is a valid JSON Schema that names every rule and takes exactly the valid files', () => {
    const validate = new Ajv2020({ strict: true }).compile(JSON.parse(readFileSync(file, 'utf8')));
    const ruleIds = Object.keys((CONFIG_SCHEMA['properties'] as { rules: { properties: object } }).rules.properties);
    expect(ruleIds).toEqual(
      RULES.map((rule) => rule.id)
        .filter((id) => id !== 'review-truncated')
        .sort(),
    );
    expect(
      validate({ $schema: './schema.json', rules: { secret: 'off', 'no-debugger': 'error' }, ignore: ['a/**'] }),
    ).toBe(true);
    expect(validate({})).toBe(true);
    expect(validate({ rules: { secret: 'critical' } })).toBe(false);
    expect(validate({ rules: { 'no-such-rule': 'off' } })).toBe(false);
    expect(validate({ extra: true })).toBe(false);
  });

  it("the CLI's own check (check-config.ts) takes exactly what the schema takes", () => {
    const validate = new Ajv2020({ strict: true }).compile(JSON.parse(readFileSync(file, 'utf8')));
    const samples: unknown[] = [
      {},
      { $schema: './s.json', rules: { secret: 'off', 'no-debugger': 'error' }, ignore: ['a/**', '!b'] },
      {
        overrides: [
          { files: ['t/'], rules: { secret: 'info' } },
          { files: ['x'], rules: {} },
        ],
      },
      [],
      'rules',
      42,
      { $schema: 3 },
      { extra: true },
      { rules: [] },
      { rules: { secret: 'critical' } },
      { rules: { 'no-such-rule': 'off' } },
      { rules: { 'review-truncated': 'off' } },
      { rules: { secret: null } },
      { ignore: 'vendor/' },
      { ignore: ['vendor/', 42] },
      { ignore: [''] },
      { overrides: {} },
      { overrides: ['x'] },
      { overrides: [{ files: ['a'] }] },
      { overrides: [{ rules: {} }] },
      { overrides: [{ files: [], rules: {} }] },
      { overrides: [{ files: [''], rules: {} }] },
      { overrides: [{ files: ['a'], rules: { nope: 'off' } }] },
      { overrides: [{ files: ['a'], rules: { secret: 'loud' } }] },
      { overrides: [{ files: ['a'], rules: {}, extra: 1 }] },
    ];
    for (const sample of samples)
      expect({ sample, valid: checkConfig(sample) === undefined }).toEqual({ sample, valid: validate(sample) });
  });
});
