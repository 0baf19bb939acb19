import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../service/client/index.ts';
import { describeFailure } from '../../extension/src/failure-report.ts';

describe('a service that cannot be reached', () => {
  const error = new NetworkError('fetch failed', 'http://127.0.0.1:47112/v1/reviews', 'ECONNREFUSED');

  it('the bundled one: no URL setting to check; offers Try Again and the log', () => {
    const report = describeFailure(error, { service: 'the bundled service' });
    expect(report).toEqual({
      kind: 'network',
      message:
        'Could not reach the bundled service at http://127.0.0.1:47112 (ECONNREFUSED). Try again; the log has details.',
      actions: ['Try Again', 'Show Log'],
    });
  });

  it('a configured one: its URL, and Open Settings on it', () => {
    const report = describeFailure(error, { service: 'https://review.example.com' });
    expect(report.actions).toEqual(['Open Settings', 'Show Log']);
    expect(report.setting).toBe('diffReview.serviceUrl');
    expect(report.message).toMatch(
      /^Could not reach the Diff Review service at https:\/\/review\.example\.com \(ECONNREFUSED\)\. Check .*"Diff Review: Service URL"/,
    );
  });
});
