// Turns whatever a handler threw into an IpcError the renderer can show in words.
import { ApiError, NetworkError, TimeoutError } from '../../service/client/index.ts';
import { GitError } from '../../service/git/index.ts';
import type { IpcChannel, IpcError } from '../shared/ipc-contract.ts';
import { serviceErrorWording } from './service-error-wording.ts';

/** A refusal by the handler itself (bad input from the renderer), shown next to `field`. */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError';
  readonly field: string | undefined;
  /** Set when the renderer reacts to this refusal in a particular way (e.g. asks to confirm). */
  readonly code: string | undefined;

  constructor(message: string, field?: string, code?: string) {
    super(message);
    this.field = field;
    this.code = code;
  }
}

/** A service call was made before a connection was established. */
export class NotConnectedError extends Error {
  override name = 'NotConnectedError';

  constructor(message = 'Not connected to a Diff Review service yet.') {
    super(message);
  }
}

// Which form field a 400 from the service belongs to: its message names the field.
const FIELD_NAMES = ['name', 'scopes', 'expires_in_days', 'diff', 'repository', 'base_commit'] as const;

function fieldOf(message: string): string | undefined {
  return FIELD_NAMES.find((field) => new RegExp(`\\b${field}\\b`).test(message));
}

/** `channel`: the request that failed, for the wording (a 404 on a token is not one on a review). */
export function toIpcError(error: unknown, channel?: IpcChannel): IpcError {
  if (error instanceof ApiError) {
    const result: IpcError = { kind: 'api', status: error.status, code: error.error, message: '' };
    if (error.status === 400 || error.status === 413) {
      const field = error.status === 413 ? 'diff' : fieldOf(error.message);
      if (field) result.field = field;
    }
    if (error.retryAfterSeconds !== undefined) result.retryAfterSeconds = error.retryAfterSeconds;
    result.message = serviceErrorWording({ ...result, status: error.status, code: error.error }, channel);
    return result;
  }
  if (error instanceof NetworkError) {
    return {
      kind: 'network',
      message: `The service at ${new URL(error.url).origin} cannot be reached.`,
      code: error.code,
    };
  }
  if (error instanceof TimeoutError)
    return { kind: 'timeout', message: 'The service took too long to answer. Try again.' };
  if (error instanceof GitError) return { kind: 'git', code: error.name, message: error.message };
  if (error instanceof InvalidInputError) {
    return {
      kind: 'invalid_input',
      message: error.message,
      ...(error.field ? { field: error.field } : {}),
      ...(error.code ? { code: error.code } : {}),
    };
  }
  if (error instanceof NotConnectedError) return { kind: 'not_connected', message: error.message };
  return { kind: 'internal', message: 'Something went wrong in the app. Details are in the log.' };
}
