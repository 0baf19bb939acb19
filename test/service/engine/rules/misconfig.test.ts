// The misconfiguration families where the line's context decides: a `run: |` script block, a
// pull_request_target workflow, CORS settings over several lines. One-line cases of every family
// are in misconfig-cases.ts (run by families.test.ts).
import { describe, expect, it } from 'vitest';
import { findings, modifiedFileDiff, reviewDiff } from '../review-helpers.ts';

const linesOf = async (rule: string, path: string, lines: string[]): Promise<number[]> =>
  (await findings(path, lines)).filter((f) => f.rule_id === rule).map((f) => f.line);

describe('no-actions-script-injection', () => {
  const workflow = [
    'on: issues',
    'jobs:',
    '  triage:',
    '    runs-on: ubuntu-latest',
    '    env:',
    '      TITLE: ${{ github.event.issue.title }}',
    '    steps:',
    '      - run: |',
    '          echo "triaging"',
    '          echo "${{ github.event.issue.body }}" | grep -q bug',
    '      - uses: actions/github-script@v7',
    '        with:',
    '          script: console.log("${{ github.event.issue.title }}")',
    '      - run: echo "$TITLE"',
  ];

  it('reports untrusted text inside a run: block, not in env: or with:', async () => {
    expect(await linesOf('no-actions-script-injection', '.github/workflows/triage.yml', workflow)).toEqual([10]);
  });

  it("reads the run: key above an added line of a block from the diff's context", async () => {
    const diff = modifiedFileDiff('.github/workflows/triage.yml', workflow.slice(0, 9), [
      '          echo "${{ github.event.comment.body }}"',
    ]);
    const found = (await reviewDiff(diff)).findings.filter((f) => f.rule_id === 'no-actions-script-injection');
    expect(found.map((f) => f.line)).toEqual([10]);
  });

  it('is not read outside workflow files', async () => {
    expect(
      await linesOf('no-actions-script-injection', 'docs/ci.yml', [
        '        run: echo "${{ github.event.issue.title }}"',
      ]),
    ).toEqual([]);
  });
});

describe('no-pull-request-target-checkout', () => {
  const workflow = (trigger: string) => [
    `on: ${trigger}`,
    'jobs:',
    '  test:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '        with:',
    '          ref: ${{ github.event.pull_request.head.sha }}',
    '      - run: npm ci && npm test',
  ];

  it('reports checking out the head in a pull_request_target workflow', async () => {
    expect(
      await linesOf('no-pull-request-target-checkout', '.github/workflows/pr.yml', workflow('pull_request_target')),
    ).toEqual([8]);
  });

  it('does not report the same checkout under pull_request', async () => {
    expect(
      await linesOf('no-pull-request-target-checkout', '.github/workflows/pr.yml', workflow('pull_request')),
    ).toEqual([]);
  });
});

describe('no-cors-any-origin-credentials', () => {
  it('reads settings over several lines (Django, Express)', async () => {
    expect(
      await linesOf('no-cors-any-origin-credentials', 'mysite/settings.py', [
        'CORS_ALLOW_ALL_ORIGINS = True',
        'CORS_ALLOW_CREDENTIALS = True',
      ]),
    ).toEqual([2]);
    const express = ['app.use(', '  cors({', "    origin: '*',", '    credentials: true,', '  }),', ');'];
    expect(await linesOf('no-cors-any-origin-credentials', 'src/server.ts', express)).toEqual([4]);
    const listed = [
      'app.use(',
      '  cors({',
      "    origin: ['https://app.example.com'],",
      '    credentials: true,',
      '  }),',
      ');',
    ];
    expect(await linesOf('no-cors-any-origin-credentials', 'src/server.ts', listed)).toEqual([]);
  });
});

describe('no-sql-string-building', () => {
  it('is not read in tests', async () => {
    expect(
      await linesOf('no-sql-string-building', 'test/users.test.ts', [
        'await db.query(`SELECT * FROM users WHERE id = ${id}`);',
      ]),
    ).toEqual([]);
  });
});
