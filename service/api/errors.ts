// Errors a request can end in. Every one becomes a body `{ error, message }` (API.md) with its
// status; the identifiers are the contract's, the messages say what to do.

export type ErrorId =
  | 'invalid_request'
  | 'unauthorized'
  | 'token_expired'
  | 'insufficient_scope'
  | 'not_found'
  | 'method_not_allowed'
  | 'misdirected_request'
  | 'conflict'
  | 'diff_too_large'
  | 'payload_too_large'
  | 'rate_limited'
  | 'queue_full'
  | 'request_timeout'
  | 'header_fields_too_large'
  | 'service_unavailable'
  | 'internal_error';

export class ApiError extends Error {
  readonly status: number;
  readonly error: ErrorId;
  readonly headers: Record<string, string>;

  constructor(status: number, error: ErrorId, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.error = error;
    this.headers = headers;
  }
}

export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} was not found.`);
export const invalidRequest = (message: string) => new ApiError(400, 'invalid_request', message);
