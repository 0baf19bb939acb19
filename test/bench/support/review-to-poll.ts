// What the polling benchmarks poll: a service in a child process holding one completed review of
// 20 comments, and a bare node:http server answering the same bytes with no auth and no store
// (the floor: what Node alone does on this machine).
import { createReview, debuggerDiff, reviewToken, startChild, waitTerminal, type ChildServer } from './harness.ts';

export interface ReviewToPoll {
  server: ChildServer;
  /** A review token with both scopes. */
  token: string;
  id: string;
  /** The review's URL on the service, and the headers a poll of it sends. */
  url: string;
  headers: Record<string, string>;
  /** What a poll of it answers. */
  body: Buffer;
  contentType: string;
}

/** Starts the service on `dataDir` and reviews a diff of 20 findings there. */
export async function serviceWithReview(
  dataDir: string,
  { logLevel, logFile }: { logLevel?: string; logFile?: string } = {},
): Promise<ReviewToPoll> {
  const server = await startChild({ mode: 'service', dataDir, logLevel }, logFile);
  const token = await reviewToken(server.url, server.dashboardToken!);
  const id = await createReview(server.url, token, debuggerDiff(20));
  const job = await waitTerminal(server.url, token, id);
  if (job.status !== 'completed' || job.comments?.length !== 20)
    throw new Error(`expected 20 comments, got ${JSON.stringify(job).slice(0, 300)}`);
  const url = `${server.url}/v1/reviews/${id}`;
  const headers = { authorization: `Bearer ${token}` };
  const answer = await fetch(url, { headers });
  return {
    server,
    token,
    id,
    url,
    headers,
    body: Buffer.from(await answer.arrayBuffer()),
    contentType: answer.headers.get('content-type')!,
  };
}

/** A bare node:http server answering every request with the review's bytes; `url` has the same path. */
export async function bareAnswering(review: ReviewToPoll): Promise<{ server: ChildServer; url: string }> {
  const server = await startChild({
    mode: 'bare',
    status: 200,
    contentType: review.contentType,
    bodyBase64: review.body.toString('base64'),
  });
  return { server, url: `${server.url}/v1/reviews/${review.id}` };
}
