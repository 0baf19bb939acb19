// A stand-in review service on a loopback port, for the paths the real one does not take on demand:
// 429 with Retry-After, a job that runs until it is cancelled. Speaks just enough of the API.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReviewJob } from '../../../../service/api/schemas.ts';

export interface FakeService {
  url: string;
  /** What POST /v1/reviews answers next: a 429 with this Retry-After, or a job. */
  rateLimits: string[];
  /** Jobs run until cancelled (`hang`), or complete at once with `comments`. */
  mode: 'complete' | 'hang' | 'fail';
  comments: NonNullable<ReviewJob['comments']>;
  /** Times (ms) of each POST /v1/reviews. */
  creates: number[];
  jobs: Map<string, ReviewJob>;
  /** Resolves when a job has been polled while running (the review is under way). */
  polled: Promise<void>;
  /** Cancel requests are left unanswered (a service slow to cancel) until the fake closes. */
  holdCancels: boolean;
  /** Cancel requests received and not answered. */
  heldCancels: number;
  close(): Promise<void>;
}

/** The one rule the stand-in documents, and its page. */
const FAKE_RULE = { id: 'fake-rule', severity: 'info', summary: 'A rule of the configured service.', help: 'Fix it.' };
export const FAKE_RULE_PAGE = "# fake-rule\n\nThe configured service's own page for its rule.\n";

export async function startFakeService(): Promise<FakeService> {
  let markPolled: () => void = () => {};
  // One object: the handler reads what the test sets on it.
  const fake: FakeService = {
    url: '',
    rateLimits: [],
    mode: 'complete',
    comments: [],
    creates: [],
    jobs: new Map(),
    polled: new Promise((resolve) => (markPolled = resolve)),
    holdCancels: false,
    heldCancels: 0,
    close: async () => {},
  };
  const now = () => new Date().toISOString();
  const send = (response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const url = request.url ?? '';
      // A rule's documentation needs no token (GET /v1/rules/{id}); this service knows one rule.
      if (request.method === 'GET' && url === '/v1/rules/fake-rule')
        return send(response, 200, { ...FAKE_RULE, markdown: FAKE_RULE_PAGE });
      if (!/^Bearer drv_/.test(request.headers.authorization ?? ''))
        return send(response, 401, { error: 'unauthorized', message: 'No token.' });
      if (request.method === 'POST' && url === '/v1/reviews') {
        fake.creates.push(Date.now());
        const retryAfter = fake.rateLimits.shift();
        if (retryAfter !== undefined)
          return send(response, 429, { error: 'rate_limited', message: 'Slow down.' }, { 'retry-after': retryAfter });
        const id = `rev_${String(fake.jobs.size + 1).padStart(26, '0')}`;
        const job: ReviewJob = {
          review_id: id,
          status: 'queued',
          repository: 'fake',
          created_at: now(),
          updated_at: now(),
        };
        fake.jobs.set(id, job);
        return send(response, 202, job);
      }
      const match = /^\/v1\/reviews\/(rev_\w+)(\/events|\/cancel)?$/.exec(url);
      const job = match ? fake.jobs.get(match[1]!) : undefined;
      if (!job) return send(response, 404, { error: 'not_found' });
      if (match![2] === '/events') return send(response, 404, { error: 'not_found', message: 'No event stream here.' });
      if (match![2] === '/cancel' && request.method === 'POST' && fake.holdCancels) {
        fake.heldCancels++;
        return; // answered by closeAllConnections
      }
      if (match![2] === '/cancel' && request.method === 'POST') {
        if (job.status === 'queued' || job.status === 'running')
          Object.assign(job, {
            status: 'failed',
            error: { code: 'cancelled', message: 'Cancelled.' },
            updated_at: now(),
          } satisfies Partial<ReviewJob>);
        return send(response, 200, job);
      }
      if (job.status === 'queued' || job.status === 'running') {
        if (fake.mode === 'hang') {
          Object.assign(job, { status: 'running', updated_at: now() } satisfies Partial<ReviewJob>);
          markPolled();
        } else if (fake.mode === 'fail')
          Object.assign(job, {
            status: 'failed',
            error: { code: 'invalid_diff', message: 'The diff could not be read.' },
            updated_at: now(),
          } satisfies Partial<ReviewJob>);
        else
          Object.assign(job, {
            status: 'completed',
            comments: fake.comments,
            updated_at: now(),
          } satisfies Partial<ReviewJob>);
      }
      return send(response, 200, job);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
