// Issue 16 item 6: a token sent where it does not belong (a query string, a path) never reaches
// the log. Request lines carry the path and the query's names with their values redacted, and
// anything shaped like one of our secrets is redacted from every line, whoever wrote it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHealthy, DEBUGGER_DIFF, startTestService, type TestService } from '../../support/test-service.ts';

/** Anything that still looks like a secret: `drv_` and more base62 than a token's 4-character prefix. */
const SECRET_SHAPE = /drv_[0-9A-Za-z]{5,}/;

for (const logLevel of ['info', 'debug'] as const) {
  describe(`log level ${logLevel}: a token in the URL is never logged`, () => {
    let t: TestService;
    beforeAll(async () => {
      t = await startTestService({ logLevel, rateLimits: { create: 0, read: 0, tokens: 0 } });
    });
    afterAll(() => closeHealthy(t));

    const requestLines = () =>
      t.logs.flatMap((line) => {
        const entry = JSON.parse(line) as { req?: { url?: string }; res?: { statusCode?: number } };
        return entry.req?.url === undefined ? [] : [{ url: entry.req.url, status: entry.res?.statusCode }];
      });

    it('refused, accepted, unknown and wrong-method requests: the secret appears in no line', async () => {
      const secret = t.reviewToken;
      const job = await t.client().createReview({ diff: DEBUGGER_DIFF, repository: 'github.com/acme/widgets' });
      await t.client().waitForReview(job.review_id, { timeoutMs: 20_000, pollIntervalMs: 20 });
      const answers = [
        await t.api('GET', `/v1/reviews?access_token=${secret}`, { token: null }), // 401: the reported leak
        await t.api('GET', `/v1/reviews?access_token=${secret}&limit=5`), // 400: unknown query parameter
        await t.api('GET', `/v1/reviews?repository=${secret}&limit=5`), // 200: logged at debug
        await t.api('GET', `/v1/reviews/${job.review_id}?token=${secret}`), // 200, a finished review (not the fast path: it has a query)
        await t.api('GET', `/v1/reviews/${secret}`), // 404: the secret in the path
        await t.api('GET', `/v1/reviews/${secret.replace('_', '%5F')}`), // 404: ... percent-encoded
        await t.api('DELETE', `/v1/reviews?access_token=${secret}`), // 405
        await t.api('GET', `/nowhere/${secret}?x=${secret}`, { token: null }), // 404
        await t.api('GET', `/v1/reviews?a=1&access_token=${encodeURIComponent(secret)}#frag`, { token: null }),
      ];
      expect(answers.map((a) => a.status)).toEqual([401, 400, 200, 200, 404, 404, 405, 404, 401]);
      const log = t.logs.join('');
      expect(log).not.toContain(secret);
      expect(log).not.toContain(secret.slice(4)); // not even without its recognisable start
      expect(log).not.toMatch(SECRET_SHAPE);
      // The refusals are still logged (at info), with the path and the names of the query's parameters.
      const lines = requestLines();
      expect(lines).toContainEqual({ url: '/v1/reviews?access_token=[redacted]', status: 401 });
      expect(lines).toContainEqual({ url: '/v1/reviews?access_token=[redacted]&limit=[redacted]', status: 400 });
      expect(lines).toContainEqual({ url: '/v1/reviews?access_token=[redacted]', status: 405 });
      if (logLevel === 'debug')
        expect(lines).toContainEqual({ url: '/v1/reviews?repository=[redacted]&limit=[redacted]', status: 200 });
    });

    it('a secret-shaped string in any line, from any part of the service, is redacted', async () => {
      const secret = t.reviewToken;
      t.service.log.warn({ detail: `see ${secret}`, nested: { list: [secret] } }, `message with ${secret} inside`);
      t.service.log.warn(`drv_${'A'.repeat(40)} and drv_short1 and drv_`);
      const log = t.logs.join('');
      expect(log).not.toContain(secret);
      expect(log).not.toMatch(SECRET_SHAPE);
      expect(log).toContain('message with drv_[redacted] inside');
    });
  });
}
