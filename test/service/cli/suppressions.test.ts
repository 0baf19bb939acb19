// `diff-review suppressions`: every diff-review-ignore of the repository with its rules, reason,
// end and age from git blame, in text and JSON; prose that only mentions the directive is not one.
// The built CLI on a real repository whose commits carry chosen dates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, git, makeRepo, runCli, type TestRepo } from './review-cli.ts';

let repo: TestRepo;
const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);

function commitAt(message: string, date: string) {
  git(repo.dir, 'add', '-A');
  git(repo.dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', message, '--date', date);
}

beforeAll(() => {
  buildCli();
  repo = makeRepo();
  repo.write('src/app.js', 'debugger; // diff-review-ignore no-debugger (stepping through on staging)\n');
  commitAt('old', daysAgo(40));
  repo.write(
    'app/fetch.py',
    [
      `requests.get(url, verify=False)  # diff-review-ignore no-tls-verify-off (self-signed test server) until ${today}`,
      `x = 1  # diff-review-ignore until ${yesterday}`,
      'y = 2  # diff-review-ignore secret until 2027-02-30',
      '',
    ].join('\n'),
  );
  // Examples, not directives: a code block in documentation and a string in code.
  repo.write(
    'README.md',
    '# app\n\nA `diff-review-ignore` comment silences a finding:\n\n```js\ndebugger; // diff-review-ignore no-debugger (an example)\n```\n',
  );
  repo.write('src/strings.js', 'const example = "// diff-review-ignore no-eval";\n');
  // In documentation a directive is an HTML comment.
  repo.write(
    'docs/keys.md',
    "Sample key: AKIA…  <!-- diff-review-ignore secret (the provider's documented sample) -->\n",
  );
  commitAt('new', daysAgo(2));
  repo.write('src/new.js', 'eval(code); // diff-review-ignore no-eval\n'); // not committed yet
  git(repo.dir, 'add', 'src/new.js');
}, 60_000);
afterAll(() => repo.cleanup());

describe('diff-review suppressions', () => {
  it('--format json: file, line, rules, reason, end, age', async () => {
    const run = await runCli(['suppressions', '--format', 'json'], { cwd: repo.dir });
    expect(run.code).toBe(0);
    const { suppressions } = JSON.parse(run.stdout) as { suppressions: Record<string, unknown>[] };
    expect(suppressions.map(({ added_at: _at, ...rest }) => rest)).toEqual([
      {
        file: 'app/fetch.py',
        line: 1,
        rules: ['no-tls-verify-off'],
        reason: 'self-signed test server',
        until: today,
        expired: false,
        age_days: 2,
      },
      { file: 'app/fetch.py', line: 2, rules: [], reason: null, until: yesterday, expired: true, age_days: 2 },
      {
        file: 'app/fetch.py',
        line: 3,
        rules: ['secret'],
        reason: null,
        until: null,
        expired: false,
        invalid_until: '2027-02-30',
        age_days: 2,
      },
      {
        file: 'docs/keys.md',
        line: 1,
        rules: ['secret'],
        reason: "the provider's documented sample",
        until: null,
        expired: false,
        age_days: 2,
      },
      {
        file: 'src/app.js',
        line: 1,
        rules: ['no-debugger'],
        reason: 'stepping through on staging',
        until: null,
        expired: false,
        age_days: 40,
      },
      { file: 'src/new.js', line: 1, rules: ['no-eval'], reason: null, until: null, expired: false, age_days: null },
    ]);
  });

  it('text: one line each and a summary of what to look at', async () => {
    const run = await runCli(['suppressions'], { cwd: repo.dir });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`app/fetch.py:1  no-tls-verify-off  (self-signed test server)  until ${today}  2 days old`);
    expect(lines[1]).toBe(`app/fetch.py:2  every rule  (no reason)  until ${yesterday} (expired)  2 days old`);
    expect(lines[2]).toBe('app/fetch.py:3  secret  (no reason)  until 2027-02-30 (not a date)  2 days old');
    expect(lines[3]).toBe("docs/keys.md:1  secret  (the provider's documented sample)  no end  2 days old");
    expect(lines[4]).toBe('src/app.js:1  no-debugger  (stepping through on staging)  no end  40 days old');
    expect(lines[5]).toBe('src/new.js:1  no-eval  (no reason)  no end  not committed');
    expect(lines.at(-1)).toBe('6 suppressions in 4 files: 3 without a reason, 1 for every rule, 1 expired.');
  });

  it('outside a repository: exit 2 with the reason', async () => {
    const run = await runCli(['suppressions'], { cwd: '/' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^diff-review suppressions: .*not .*git/i);
  });
});
