/// <reference types="mocha" />
// Against a configured service: a stand-in (./fake-service.ts) for the answers the real one gives
// only under load or by chance: 429, a failed job, a job that runs until cancelled, a capped review.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FAKE_RULE_PAGE, startFakeService, type FakeService } from './fake-service.ts';
import { api, appJs, codeOf, configPy, ours, review, setSetting, waitFor } from './host-helpers.ts';
import { DEBUGGER_LINE } from '../fixture.mjs';

suite('against a configured service', () => {
  let fake: FakeService;
  suiteSetup(async () => {
    fake = await startFakeService();
    await setSetting('serviceUrl', fake.url);
    await vscode.commands.executeCommand('diffReview.setToken', `drv_${'f'.repeat(38)}`);
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('diffReview.signOut');
    await setSetting('serviceUrl', undefined);
    await fake?.close();
  });

  test('429 with Retry-After: 1 waits a second, then the review goes through', async () => {
    fake.mode = 'complete';
    fake.comments = [
      {
        file_path: 'src/app.js',
        line: DEBUGGER_LINE + 1,
        severity: 'info',
        message: 'fake-rule: From the configured service.',
      },
    ];
    fake.rateLimits.push('1');
    fake.creates.length = 0;
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    assert.equal(result.serviceUrl, fake.url);
    assert.equal(fake.creates.length, 2, 'refused once, then created');
    const waited = fake.creates[1]! - fake.creates[0]!;
    assert.ok(waited >= 950, `waited ${waited} ms`);
    const diagnostic = ours(appJs()).find((d) => codeOf(d) === 'fake-rule');
    assert.equal(diagnostic?.range.start.line, DEBUGGER_LINE);
    assert.equal(diagnostic?.severity, vscode.DiagnosticSeverity.Information);
  });

  test("a rule's description comes from the configured service (GET /v1/rules/{id}) when its SARIF has none", async () => {
    // The review before had no SARIF here (this service has none): the description is asked for.
    await vscode.commands.executeCommand('diffReview.showRuleDescription', 'fake-rule');
    const page = await waitFor('the description', () =>
      vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'diff-review-rule' && d.uri.path === '/fake-rule.md'),
    );
    assert.equal(page.getText(), FAKE_RULE_PAGE);
  });

  test('one 429 policy: a service that stays busy gets 3 creates, not 9, and the progress says it waits', async () => {
    fake.mode = 'complete';
    fake.rateLimits.push(...Array.from({ length: 9 }, () => '1'));
    fake.creates.length = 0;
    let sawWaiting = '';
    const watch = setInterval(() => {
      const { tooltip } = api().status();
      if (/busy/.test(tooltip)) sawWaiting = tooltip;
    }, 50);
    try {
      const result = await review();
      assert.equal(result.outcome, 'error', JSON.stringify(result));
      assert.equal(result.failure?.kind, 'rate_limited');
      assert.equal(fake.creates.length, 3, `one try and the runner's 2 retries; got ${fake.creates.length}`);
      assert.match(sawWaiting, /The service is busy; trying again in 1 s/);
    } finally {
      clearInterval(watch);
      fake.rateLimits.length = 0;
    }
  });

  test('429 with a long Retry-After fails at once, saying how long to wait', async () => {
    fake.rateLimits.push('120');
    const started = performance.now();
    const result = await review();
    assert.equal(result.outcome, 'error', JSON.stringify(result));
    assert.equal(result.failure?.kind, 'rate_limited');
    assert.match(result.failure?.message ?? '', /is busy \(429 rate_limited\)\. Try again in 120 s/);
    assert.ok(performance.now() - started < 5000, 'did not wait the 120 s');
  });

  test('a capped review says plainly how many findings were not reported, and pins no notice to a line', async () => {
    fake.mode = 'complete';
    fake.comments = [
      {
        file_path: 'src/app.js',
        line: DEBUGGER_LINE + 1,
        severity: 'warning',
        message: 'no-debugger: Remove the debugger statement.',
      },
      { file_path: 'config.py', line: 1, severity: 'warning', message: 'fake-rule: One.' },
      { file_path: 'config.py', line: 2, severity: 'warning', message: 'fake-rule: Two.' },
      // As the engine words it (service/engine: TRUNCATED_RULE_ID), on the first finding cut.
      {
        file_path: 'src/app.js',
        line: 1,
        severity: 'info',
        message:
          'review-truncated: 5997 more findings were not reported (the limit is 3); fix the findings above and review again.',
      },
    ];
    try {
      const result = await review();
      assert.equal(result.outcome, 'completed', JSON.stringify(result));
      assert.deepEqual(result.truncated, { notReported: 5997, limit: 3 });
      assert.equal(result.shown, 3);
      assert.equal(
        ours(appJs()).find((d) => codeOf(d) === 'review-truncated'),
        undefined,
        'no notice on an unrelated line',
      );
      assert.equal(api().status().text, '$(warning) Diff Review: 3 (+5,997 not reported)');
      // The findings view says it too, first.
      assert.deepEqual(api().findingsTree()[0], { label: '5,997 more findings not reported (limit 3)' });
      assert.match(
        api().status().tooltip,
        /The review stopped at 3 findings: 5,997 more were not reported\. Fix these and review again\./,
      );
    } finally {
      fake.comments = [];
    }
  });

  test('a failed job shows its error message, with Show Log', async () => {
    fake.mode = 'fail';
    const result = await review();
    assert.equal(result.outcome, 'failed', JSON.stringify(result));
    assert.deepEqual(result.failure, {
      kind: 'job_invalid_diff',
      message: 'The review failed (invalid_diff): The diff could not be read.',
      actions: ['Show Log'],
    });
    assert.equal(api().status().state.kind, 'failed');
  });

  test('cancelling a running review cancels the job on the service and applies nothing', async () => {
    await vscode.commands.executeCommand('diffReview.clearComments');
    fake.mode = 'hang';
    const cancellation = new vscode.CancellationTokenSource();
    const pending = review({ cancellation: cancellation.token });
    await fake.polled;
    assert.equal(api().status().state.kind, 'running');
    assert.equal(api().status().text, '$(sync~spin) Reviewing…');
    cancellation.cancel();
    const result = await pending;
    assert.equal(result.outcome, 'cancelled', JSON.stringify(result));
    const job = [...fake.jobs.values()].at(-1)!;
    await waitFor('the job cancelled on the service (sent after the command returned)', () => job.status === 'failed');
    assert.equal(job.error?.code, 'cancelled');
    assert.equal(ours(appJs()).length + ours(configPy()).length, 0, 'no diagnostics applied');
    assert.deepEqual(api().status().state, { kind: 'idle' });
  });

  test('cancel: the status bar is idle at once, not after the service has answered the cancel', async () => {
    fake.mode = 'hang';
    fake.holdCancels = true;
    fake.heldCancels = 0;
    const cancellation = new vscode.CancellationTokenSource();
    try {
      const pending = review({ cancellation: cancellation.token });
      await waitFor(
        'the review under way',
        () =>
          api().status().state.kind === 'running' &&
          fake.jobs.size > 0 &&
          [...fake.jobs.values()].at(-1)!.status === 'running',
      );
      cancellation.cancel();
      // The service holds the cancel request for now; the user asked to stop, and it has.
      await waitFor(
        'the status bar idle while the service still holds the cancel',
        () => api().status().state.kind === 'idle' && fake.heldCancels === 1,
        2000,
      );
      const result = await pending;
      assert.equal(result.outcome, 'cancelled', JSON.stringify(result));
      assert.ok(
        result.durationMs < 2500,
        `the command returned without waiting for the cancel request: ${result.durationMs} ms`,
      );
    } finally {
      fake.holdCancels = false;
    }
  });
});
