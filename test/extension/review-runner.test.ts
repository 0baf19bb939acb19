// The review as the extension runs it, against real git repositories and a real service.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../../service/client/index.ts';
import { NoBaseBranchError, NotAGitRepositoryError } from '../../service/git/index.ts';
import { describeFailedJob, describeFailure } from '../../extension/src/failure-report.ts';
import {
  DEFAULT_RUN_SETTINGS,
  DiffOverLimitError,
  runReview,
  type ReviewProgress,
} from '../../extension/src/review-runner.ts';
import { clonedProject, createSandbox, type Sandbox } from '../service/git/repo-fixture.ts';
import { startTestService, type TestService } from '../support/test-service.ts';

const AWS_LINE = 'aws_secret_access_key = "Zq3rT8vK2mN9pX4wL7yB1cF6hJ0dS5gA2eR8tY3u"';
const quietLog = { info: () => {}, warn: () => {}, error: () => {} };

let service: TestService;
let sandbox: Sandbox;
let work: string;
let branchPoint: string;

beforeAll(async () => {
  service = await startTestService();
  sandbox = createSandbox();
  ({ work, branchPoint } = clonedProject(sandbox));
  sandbox.commit(work, 'debugging leftovers', {
    'src/app.js': ['function main() {', '  const x = 1;', '  debugger;', '  return x;', '}', ''].join('\n'),
    'config.py': `${AWS_LINE}\n`,
  });
});
afterAll(async () => {
  await service?.close();
  sandbox?.remove();
});

const run = (cwd: string, settings: Partial<typeof DEFAULT_RUN_SETTINGS> = {}, progress: ReviewProgress[] = []) =>
  runReview({
    cwd,
    client: service.client(),
    settings: { ...DEFAULT_RUN_SETTINGS, pollIntervalMs: 100, ...settings },
    signal: new AbortController().signal,
    log: quietLog,
    onProgress: (step) => progress.push(step),
  });

describe('a review as the extension runs it', () => {
  it('finds the merge base with origin/main, sends the three-dot diff, and gets the comments', async () => {
    const progress: ReviewProgress[] = [];
    const outcome = await run(join(work, 'src'), {}, progress);
    expect(outcome.kind).toBe('completed');
    if (outcome.kind !== 'completed') return;
    expect(outcome.prepared.baseRef).toBe('origin/main');
    expect(outcome.prepared.baseCommit).toBe(branchPoint); // not origin/main's tip: main moved on
    expect(outcome.prepared.repository).toBe('widgets');
    expect(outcome.prepared.diff).not.toContain('Main moved on'); // three dots: main's own work is not ours
    expect(outcome.job.base_commit).toBe(branchPoint);
    const comments = outcome.job.comments ?? [];
    expect(comments).toContainEqual(
      expect.objectContaining({
        file_path: 'src/app.js',
        line: 3,
        severity: 'warning',
        message: expect.stringMatching(/^no-debugger: /),
      }),
    );
    expect(comments).toContainEqual(
      expect.objectContaining({
        file_path: 'config.py',
        line: 1,
        severity: 'error',
        message: expect.stringMatching(/^secret: An? AWS secret access key/),
      }),
    );
    expect(JSON.stringify(comments)).not.toContain('Zq3rT8vK2mN9pX4wL7yB1cF6hJ0dS5gA2eR8tY3u');
    expect(progress.map((p) => p.step)).toEqual(expect.arrayContaining(['git', 'submitting', 'job']));
  });

  it("honours the repository's .diff-review.yml, as the CLI does: ignored files are not sent, rule settings grade the comments", async () => {
    const own = createSandbox();
    try {
      const { work: configured } = clonedProject(own);
      own.commit(configured, 'configured', {
        'src/app.js': ['function main() {', '  debugger;', '  // TODO later', '}', ''].join('\n'),
        'config.py': `${AWS_LINE}\n`,
        '.diff-review.yml': 'rules:\n  no-debugger: error\n  todo-without-issue: off\nignore:\n  - "*.py"\n',
      });
      const outcome = await run(configured);
      expect(outcome.kind).toBe('completed');
      if (outcome.kind !== 'completed') return;
      expect(outcome.prepared.diff).not.toContain('config.py'); // never sent
      expect(outcome.prepared.diffBytes).toBe(Buffer.byteLength(outcome.prepared.diff));
      expect(outcome.job.comments).toEqual([
        expect.objectContaining({
          file_path: 'src/app.js',
          line: 2,
          severity: 'error',
          message: expect.stringMatching(/^no-debugger: /),
        }),
      ]);

      own.commit(configured, 'a typo', { '.diff-review.yml': 'rules:\n  no-debuger: error\n' });
      await expect(run(configured)).rejects.toThrow(
        /\.diff-review\.yml:2: unknown rule "no-debuger"\. Valid rule ids: /,
      );
    } finally {
      own.remove();
    }
  });

  it('includes uncommitted changes only when asked', async () => {
    sandbox.write(join(work, 'src/extra.js'), 'debugger;\n');
    sandbox.git(work, 'add', 'src/extra.js');
    try {
      const without = await run(work);
      const withChanges = await run(work, { includeUncommitted: true });
      const files = (o: typeof without) =>
        o.kind === 'completed' ? (o.job.comments ?? []).map((c) => c.file_path) : [];
      expect(files(without)).not.toContain('src/extra.js');
      expect(files(withChanges)).toContain('src/extra.js');
    } finally {
      sandbox.git(work, 'rm', '-q', '-f', 'src/extra.js');
    }
  });

  it('says when there is nothing to review, and honours the base branch setting', async () => {
    const clean = createSandbox();
    try {
      const project = clonedProject(clean);
      clean.git(project.work, 'checkout', '-q', 'main');
      clean.git(project.work, 'reset', '-q', '--hard', 'origin/main');
      expect((await run(project.work)).kind).toBe('nothing-to-review');
      await expect(run(project.work, { baseBranch: 'no-such-branch' })).rejects.toBeInstanceOf(NoBaseBranchError);
      const failure = describeFailure(
        await run(project.work, { baseBranch: 'no-such-branch' }).catch((e: unknown) => e),
        { service: 'the bundled service' },
      );
      expect(failure).toMatchObject({ kind: 'no_base_branch', actions: ['Choose Base Branch', 'Show Log'] });
    } finally {
      clean.remove();
    }
  });

  it('refuses a folder outside git with a clear error', async () => {
    const error = await run(sandbox.dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAGitRepositoryError);
    expect(describeFailure(error, { service: 'x' }).message).toMatch(/git repository/);
  });

  it('says how large a diff over the limit is, without sending it', async () => {
    const big = createSandbox();
    try {
      const project = clonedProject(big);
      big.commit(project.work, 'huge', {
        'data.txt': 'x'.repeat(120) + '\n'.repeat(1) + `${'y'.repeat(99)}\n`.repeat(11_000),
      });
      const error = await run(project.work).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DiffOverLimitError);
      const failure = describeFailure(error, { service: 'the bundled service' });
      expect(failure.kind).toBe('diff_too_large');
      expect(failure.message).toMatch(/1\.1 MB \(1,1\d\d,\d{3} bytes\).*at most 1.0 MB \(1,000,000 bytes\)/);
    } finally {
      big.remove();
    }
  });

  it('turns a refused token into a "Set Token" report', async () => {
    const client = createClient({ baseUrl: service.url, token: 'drv_not_a_real_token_at_all_0123456789', retry: 0 });
    const error = await runReview({
      cwd: work,
      client,
      settings: DEFAULT_RUN_SETTINGS,
      signal: new AbortController().signal,
      log: quietLog,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(describeFailure(error, { service: 'the bundled service' })).toMatchObject({
      kind: 'unauthorized',
      actions: ['Set Token', 'Show Log'],
    });
  });

  it('cancels: an aborted review rejects at once', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await runReview({
      cwd: work,
      client: service.client(),
      settings: DEFAULT_RUN_SETTINGS,
      signal: controller.signal,
      log: quietLog,
    }).catch((e: unknown) => e);
    expect(describeFailure(error, { service: 'x' }).kind).toBe('cancelled');
  });
});

describe('failure reports', () => {
  const api = (status: number, error: string, retryAfterSeconds?: number) =>
    new ApiError({
      status,
      error,
      message: 'said the service',
      retryAfterSeconds,
      body: { error, message: 'said the service' },
      method: 'POST',
      url: 'http://127.0.0.1:1/v1/reviews',
    });

  it('names what to do for each status', () => {
    const ctx = { service: 'http://review.example' };
    expect(describeFailure(api(403, 'token_expired'), ctx)).toMatchObject({
      kind: 'token_expired',
      actions: ['Set Token', 'Show Log'],
    });
    expect(describeFailure(api(403, 'insufficient_scope'), ctx).message).toMatch(/reviews:read and reviews:write/);
    expect(describeFailure(api(429, 'rate_limited', 42), ctx).message).toMatch(
      /busy \(429 rate_limited\)\. Try again in 42 s/,
    );
    expect(describeFailure(api(500, 'internal_error'), ctx)).toMatchObject({ kind: 'server_error' });
    expect(describeFailure(api(400, 'invalid_request'), ctx).message).toMatch(
      /refused the review \(400 invalid_request\)\. said the service\./,
    );
  });

  it('tells a server that is not Diff Review (no error body) from one that refused, and keeps URLs as written', () => {
    const html = new ApiError({
      status: 405,
      error: 'method_not_allowed',
      message: 'x',
      retryAfterSeconds: undefined,
      body: '<html>',
      method: 'POST',
      url: 'http://127.0.0.1:8765/v1/reviews',
    });
    expect(describeFailure(html, { service: 'http://127.0.0.1:8765' })).toEqual({
      kind: 'not_diff_review',
      message:
        'http://127.0.0.1:8765 does not answer like a Diff Review service (405 to POST /v1/reviews). Check "Diff Review: Service URL".',
      actions: ['Open Settings', 'Show Log'],
      setting: 'diffReview.serviceUrl',
    });
    expect(describeFailure(api(400, 'invalid_request'), { service: 'http://127.0.0.1:8765' }).message).toMatch(
      /^http:\/\/127\.0\.0\.1:8765 refused the review/,
    );
  });

  it('shows a failed job with its error message', () => {
    const report = describeFailedJob({
      review_id: 'rev_1',
      status: 'failed',
      repository: 'r',
      created_at: '',
      updated_at: '',
      error: { code: 'invalid_diff', message: 'The diff is not a unified diff.' },
    });
    expect(report).toEqual({
      kind: 'job_invalid_diff',
      message: 'The review failed (invalid_diff): The diff is not a unified diff.',
      actions: ['Show Log'],
    });
  });
});
