// The whole life of a review through the typed client against a real service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBUGGER_DIFF, startTestService, type TestService } from '../support/test-service.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
  expect(t.contract.violations).toEqual([]);
});

describe('review lifecycle', () => {
  it('create → queued → completed with the comment on the new-file line', async () => {
    const client = t.client();
    const created = await client.createReview({
      diff: DEBUGGER_DIFF,
      repository: 'github.com/acme/widgets',
      base_commit: 'a1b2c3d',
    });
    expect(created).toEqual({
      review_id: expect.stringMatching(/^rev_[0-9A-Z]{26}$/),
      status: 'queued',
      repository: 'github.com/acme/widgets',
      base_commit: 'a1b2c3d',
      created_at: created.created_at,
      updated_at: created.created_at,
    });
    const done = await client.waitForReview(created.review_id, { timeoutMs: 20_000, pollIntervalMs: 50 });
    expect(done.status).toBe('completed');
    expect(Object.keys(done).sort()).toEqual([
      'base_commit',
      'comments',
      'completed_at',
      'created_at',
      'repository',
      'review_id',
      'started_at',
      'status',
      'updated_at',
    ]);
    expect(done.comments).toContainEqual({
      file_path: 'src/app.js',
      line: 3,
      message: expect.stringMatching(/^no-debugger: /),
      severity: expect.stringMatching(/^(error|warning)$/),
    });
    expect(Date.parse(done.started_at!)).toBeGreaterThanOrEqual(Date.parse(done.created_at));
    expect(Date.parse(done.completed_at!)).toBeGreaterThanOrEqual(Date.parse(done.started_at!));
  });

  it('a text that is not a diff fails with invalid_diff and no comments', async () => {
    const client = t.client();
    const created = await client.createReview({ diff: 'hello, this is not a diff\n', repository: 'r' });
    const done = await client.waitForReview(created.review_id, { timeoutMs: 20_000, pollIntervalMs: 50 });
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({ code: 'invalid_diff', message: expect.any(String) });
    expect(done).not.toHaveProperty('comments');
    expect(done).not.toHaveProperty('completed_at');
  });

  it('a hunk whose line numbers would overflow fails with invalid_diff, never a negative or zero line', async () => {
    const client = t.client();
    for (const start of ['2147483647', '4294967295']) {
      const diff = `diff --git a/a.js b/a.js\n--- a/a.js\n+++ b/a.js\n@@ -${start},1 +${start},2 @@\n x\n+debugger;\n`;
      const created = await client.createReview({ diff, repository: 'r' });
      const done = await client.waitForReview(created.review_id, { timeoutMs: 20_000, pollIntervalMs: 50 });
      expect(done.status, start).toBe('failed');
      expect(done.error).toEqual({ code: 'invalid_diff', message: expect.stringContaining('2,147,483,647') });
    }
  });

  it('follows a job over Server-Sent Events to its terminal state', async () => {
    const client = t.client();
    const created = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' });
    const seen: string[] = [];
    for await (const job of client.events(created.review_id)) seen.push(job.status);
    expect(seen.at(-1)).toBe('completed');
    expect(seen.length).toBeGreaterThanOrEqual(1);
  });
});
