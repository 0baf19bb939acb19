// The service's defaults, apart from the service, so that `diff-review --help` can show them
// without loading the HTTP server.
import envPaths from 'env-paths';
import type { EventStreamLimits } from './http/event-stream-slots.ts';
import type { RateLimits, ServerTimeouts } from './http/server.ts';

export const DEFAULTS = {
  host: '127.0.0.1',
  cliPort: 7411,
  jobTimeoutMs: 60_000,
  retentionDays: 30,
  maxQueuedJobs: 1000,
  shutdownGraceMs: 5000,
  rateLimits: { read: 1200, create: 120, tokens: 120 } satisfies RateLimits,
  timeouts: { requestMs: 60_000, headersMs: 15_000 } satisfies ServerTimeouts,
  // Well under a 1,024-descriptor limit in all; a desktop window follows every unfinished job it shows.
  eventStreams: { perToken: 32, total: 256, lifetimeMs: 10 * 60_000 } satisfies EventStreamLimits,
};

export const defaultDataDir = () => envPaths('diff-review', { suffix: '' }).data;
