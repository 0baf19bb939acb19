// A real node:http server on 127.0.0.1:0 that imitates the API v1 contract closely enough to
// test the client: routes are set per test, every request is recorded.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReviewJob, ReviewStatus } from '../../../service/api/schemas.ts';

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request arrived. */
  at: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

export interface FakeService {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: RecordedRequest[];
  /** Requests whose path (without query) is `path`. */
  requestsTo(path: string, method?: string): RecordedRequest[];
  route(methodAndPath: string, handler: Handler): void;
  close(): Promise<void>;
}

/** Routes are `METHOD /path` (exact path, no query). Unknown path 404, known path other method 405. */
export async function startFakeService(routes: Record<string, Handler> = {}): Promise<FakeService> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const handler = table.get(`${req.method} ${path}`);
      if (handler) {
        Promise.resolve(handler(req, res, body)).catch((error: unknown) => {
          sendError(res, 500, 'internal_error', String(error));
        });
        return;
      }
      const allowed = [...table.keys()].filter((key) => key.endsWith(` ${path}`)).map((key) => key.split(' ')[0]);
      if (allowed.length > 0)
        sendError(res, 405, 'method_not_allowed', 'Method not allowed.', { allow: allowed.join(', ') });
      else sendError(res, 404, 'not_found', `No route ${req.method} ${path}.`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (path, method) =>
      requests.filter(
        (r) => new URL(r.url, 'http://x').pathname === path && (method === undefined || r.method === method),
      ),
    route: (key, handler) => table.set(key, handler),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export function sendError(
  res: ServerResponse,
  status: number,
  error: string,
  message?: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, message === undefined ? { error } : { error, message }, headers);
}

/** Starts an event stream; write frames with `res.write`. */
export function startEventStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
  res.flushHeaders();
}

/** One `review` event, the JSON split over several data: lines (as a pretty-printing server would). */
export function reviewFrame(job: ReviewJob, eol = '\n'): string {
  const lines = JSON.stringify(job, null, 2).split('\n');
  return `event: review${eol}${lines.map((line) => `data: ${line}`).join(eol)}${eol}${eol}`;
}

export const REVIEW_ID = 'rev_01JD8X3Q4M5N6P7R8S9T0V1W2X';

let clock = Date.parse('2026-11-21T18:42:00.000Z');

/** A job in the given state, shaped as the contract says (fields absent when they do not apply). */
export function job(status: ReviewStatus, reviewId = REVIEW_ID): ReviewJob {
  clock += 1000;
  const at = new Date(clock).toISOString();
  const base: ReviewJob = {
    review_id: reviewId,
    status,
    repository: 'github.com/acme/widgets',
    created_at: '2026-11-21T18:42:00.000Z',
    updated_at: at,
  };
  if (status !== 'queued') base.started_at = at;
  if (status === 'completed') {
    base.completed_at = at;
    base.comments = [{ file_path: 'src/a.ts', line: 3, message: 'no-debugger: Remove it.', severity: 'error' }];
  }
  if (status === 'failed') base.error = { code: 'cancelled', message: 'Cancelled.' };
  return base;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
