// The Diff Review API v1 client, shared by the VS Code extension, the desktop app, the CLI and the
// tests. Runs wherever fetch does (Node, browsers, Electron renderers): no node: imports here.
export { createClient, type DiffReviewClient, type SarifLog } from './client.ts';
export type {
  CallOptions,
  ClientOptions,
  CreateReviewOptions,
  EventsOptions,
  FollowOptions,
  TokenSource,
  WaitOptions,
} from './options.ts';
export {
  AbortError,
  ApiError,
  DiffReviewError,
  EventStreamError,
  NetworkError,
  TimeoutError,
  type ApiErrorInit,
} from './errors.ts';
export type { OwnerEvent } from './owner-events.ts';
export { isTerminal, isTerminalStatus } from '../api/review-status.ts';
export { parseRetryAfter } from './retry-after.ts';
export { parseServerSentEvents, EventStreamParser, type ServerSentEvent } from './sse.ts';
