// Issue 16 item 10: DNS rebinding. A web page whose name is made to resolve to 127.0.0.1 can send
// requests to a local service, but its requests carry its own name in Host. Bound to a loopback
// address, the service answers only loopback names (and the names the operator allows), with 421
// misdirected_request otherwise: on every path, public or not, the poll fast path included.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostPolicy } from '../../../service/http/host-check.ts';
import { rawSocket } from './raw-http.ts';
import { serveCli } from './serve-cli.ts';
import { closeHealthy, DEBUGGER_DIFF, startTestService, type TestService } from '../../support/test-service.ts';

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** The status of GET /healthz sent to `url` with the given Host header. */
function healthWithHost(url: string, host: string): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    http
      .get(
        { host: target.hostname, port: target.port, path: '/healthz', headers: { host }, agent: false },
        (response) => {
          response.resume();
          resolve(response.statusCode!);
        },
      )
      .on('error', reject);
  });
}

/** A request with the given Host header (fetch will not send a made-up one). */
function withHost(
  t: TestService,
  method: string,
  path: string,
  host: string,
  { token = t.reviewToken as string | null, body = undefined as string | undefined } = {},
): Promise<Answer> {
  const target = new URL(t.url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const request = http.request(
      { host: target.hostname, port: target.port, method, path, headers, agent: false },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => {
          const answer = {
            status: response.statusCode!,
            contentType: String(response.headers['content-type']),
            body: Buffer.concat(parts).toString('utf8'),
          };
          // An SSE 200 is not a JSON body; everything else is checked against the contract.
          if (!answer.contentType.startsWith('text/event-stream'))
            t.contract.check(method, `${t.url}${path}`, answer.status, answer.contentType, answer.body);
          resolve(answer);
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('bound to 127.0.0.1', () => {
  let t: TestService;
  let finished: string;
  beforeAll(async () => {
    t = await startTestService({ rateLimits: { create: 0, read: 0, tokens: 0 } });
    const job = await t.client().createReview({ diff: DEBUGGER_DIFF, repository: 'github.com/acme/widgets' });
    finished = (await t.client().waitForReview(job.review_id, { timeoutMs: 20_000, pollIntervalMs: 20 })).review_id;
    await t.client().getReview(finished); // its bytes are kept: the next polls take the fast path
  });
  afterAll(() => closeHealthy(t));

  it('answers the loopback names, with or without the port, in any case', async () => {
    const port = new URL(t.url).port;
    for (const host of [
      '127.0.0.1',
      `127.0.0.1:${port}`,
      'localhost',
      `localhost:${port}`,
      'LocalHost',
      '[::1]',
      `[::1]:${port}`,
    ]) {
      expect((await withHost(t, 'GET', '/healthz', host)).status, host).toBe(200);
      expect((await withHost(t, 'GET', `/v1/reviews/${finished}`, host)).status, host).toBe(200);
    }
  });

  it('answers 421 misdirected_request to any other name, on every path', async () => {
    const port = new URL(t.url).port;
    const others = [
      'evil.example',
      `evil.example:${port}`,
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      'localhost.',
      '[::2]',
      '127.0.0.2',
      'xn--lcalhost',
      'localhost:abc',
      'localhost:7411:1',
    ];
    const requests: [string, string, string | undefined][] = [
      ['GET', '/healthz', undefined],
      ['GET', '/v1/openapi.json', undefined],
      ['GET', `/v1/reviews/${finished}`, undefined], // the poll fast path
      ['GET', `/v1/reviews/${finished}/events`, undefined],
      ['GET', '/v1/reviews', undefined],
      ['POST', '/v1/reviews', JSON.stringify({ diff: DEBUGGER_DIFF, repository: 'r' })],
      ['GET', '/v1/auth/tokens', undefined],
      ['DELETE', '/v1/reviews', undefined], // would be 405
      ['GET', '/nowhere', undefined], // would be 404
    ];
    for (const host of others) {
      for (const [method, path, body] of requests) {
        const answer = await withHost(t, method, path, host, { body });
        expect(answer.status, `${host} ${method} ${path}`).toBe(421);
        const error = JSON.parse(answer.body) as { error: string; message: string };
        expect(error.error).toBe('misdirected_request');
        expect(error.message).toMatch(/127\.0\.0\.1/);
      }
    }
    // An empty Host (http.request would fill it in: a raw socket).
    const empty = await rawSocket(t.url, ['GET /healthz HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n']);
    expect(empty.status).toBe(421);
    // Even without a token: the host is checked first, and a refused page learns nothing about tokens.
    expect((await withHost(t, 'GET', '/v1/reviews', 'evil.example', { token: null })).status).toBe(421);
  });

  it('the clients, which use 127.0.0.1 URLs, work as before', async () => {
    expect((await t.client().getReview(finished)).status).toBe('completed');
    expect((await t.client(t.dashboardToken).listTokens()).tokens.length).toBeGreaterThan(0);
  });
});

describe('bound to 127.0.0.1 with --allowed-hosts', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ allowedHosts: ['review.internal', 'Diff-Review.Example'] });
  });
  afterAll(() => closeHealthy(t));

  it('answers the allowed names too (any case, any port), and 421 to the rest', async () => {
    for (const host of [
      'review.internal',
      'review.internal:80',
      'REVIEW.internal',
      'diff-review.example:7411',
      '127.0.0.1',
      'localhost',
    ]) {
      expect((await withHost(t, 'GET', '/healthz', host)).status, host).toBe(200);
    }
    for (const host of ['other.internal', 'sub.review.internal', 'review.internal.evil']) {
      expect((await withHost(t, 'GET', '/healthz', host)).status, host).toBe(421);
    }
  });
});

describe('the policy by bind address', () => {
  it('loopback binds check; others check only when names are allowed', () => {
    expect(hostPolicy('127.0.0.1', [])?.allows('evil.example')).toBe(false);
    expect(hostPolicy('::1', [])?.allows('evil.example')).toBe(false);
    expect(hostPolicy('localhost', [])?.allows('evil.example')).toBe(false);
    expect(hostPolicy('127.0.0.5', [])?.allows('127.0.0.5:9')).toBe(true); // the address it is bound to
    expect(hostPolicy('0.0.0.0', [])).toBeUndefined();
    expect(hostPolicy('::', [])).toBeUndefined();
    expect(hostPolicy('192.168.1.5', [])).toBeUndefined();
    const lan = hostPolicy('0.0.0.0', ['review.lan']);
    expect(lan?.allows('review.lan:7411')).toBe(true);
    expect(lan?.allows('127.0.0.1:7411')).toBe(true);
    expect(lan?.allows('0.0.0.0:7411')).toBe(true); // the service's own URL, which the CLI uses
    expect(hostPolicy('::', ['review.lan'])?.allows('[::]:7411')).toBe(true);
    expect(lan?.allows('evil.example')).toBe(false);
    expect(hostPolicy('192.168.1.5', ['review.lan'])?.allows('192.168.1.5:7411')).toBe(true);
    expect(hostPolicy('127.0.0.1', ['*'])).toBeUndefined(); // the operator turns the check off
  });

  it('a request without Host (HTTP/1.0) is not a browser: answered', () => {
    expect(hostPolicy('127.0.0.1', [])?.allows(undefined)).toBe(true);
  });
});

describe('diff-review serve', () => {
  it('DIFF_REVIEW_ALLOWED_HOSTS (and --allowed-hosts) set the names answered', { timeout: 30_000 }, async () => {
    const served = await serveCli({ DIFF_REVIEW_ALLOWED_HOSTS: ' review.internal, ci.example ' });
    try {
      expect(await healthWithHost(served.url, 'review.internal:7411')).toBe(200);
      expect(await healthWithHost(served.url, 'ci.example')).toBe(200);
      expect(await healthWithHost(served.url, new URL(served.url).host)).toBe(200);
      expect(await healthWithHost(served.url, 'evil.example')).toBe(421);
    } finally {
      await served.stop();
    }
    const flagged = await serveCli({}, ['--allowed-hosts', 'flag.example']);
    try {
      expect(await healthWithHost(flagged.url, 'flag.example')).toBe(200);
      expect(await healthWithHost(flagged.url, 'review.internal')).toBe(421);
    } finally {
      await flagged.stop();
    }
  });
});
