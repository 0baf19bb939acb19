// The app's own words for what the service answered. The service's text is written for API users
// (Ajv's "body/name must NOT have more than 100 characters", "queue_full"); the window shows what
// happened and what to do, by error identifier, status, form field and request. The service's
// text stays in the app's log (ipc-router.ts).
import { LIMITS } from '../../service/api/limits.ts';
import type { IpcChannel } from '../shared/ipc-contract.ts';

export interface ServiceRefusal {
  status: number;
  /** The API's error identifier. */
  code: string;
  field?: string;
  retryAfterSeconds?: number;
}

const FIELD_WORDING: Record<string, string> = {
  name: 'Give the token a name of 1 to 100 characters.',
  scopes: 'Choose reviews:read, reviews:write or both.',
  expires_in_days: 'Choose when the token expires.',
  diff: 'The service cannot read this as a unified diff (the output of git diff).',
  repository: `Name the repository in at most ${LIMITS.repositoryChars} characters, e.g. github.com/acme/widgets.`,
  base_commit: 'The base commit must be a commit id: 7 to 40 hexadecimal characters.',
};

const after = (seconds: number | undefined) =>
  seconds === undefined ? 'in a moment' : `in ${seconds} second${seconds === 1 ? '' : 's'}`;

const DIFF_LIMIT = `${LIMITS.diffBytes.toLocaleString('en')} bytes`;

/** What the window says about a refusal of `channel`'s request. */
export function serviceErrorWording(refusal: ServiceRefusal, channel?: IpcChannel): string {
  const { status, code } = refusal;
  const review = channel?.startsWith('reviews:');
  if (code === 'rate_limited' || (status === 429 && code !== 'queue_full'))
    return `The service is answering too many requests right now. Try again ${after(refusal.retryAfterSeconds)}.`;
  if (code === 'queue_full')
    return `The service has too many reviews waiting. Try again ${after(refusal.retryAfterSeconds)}.`;
  if (code === 'diff_too_large' || code === 'payload_too_large' || status === 413)
    return `The diff is over the service's limit of ${DIFF_LIMIT}. Review a smaller range of commits.`;
  if (status === 400) {
    const wording = refusal.field ? FIELD_WORDING[refusal.field] : undefined;
    return wording ?? 'The service refused the request as not valid. The app log has its reason.';
  }
  if (code === 'token_expired') return "The app's token for this service has expired. Reconnect with “Change”.";
  if (status === 401) return "The service no longer accepts the app's token. Reconnect with “Change”.";
  if (status === 403) return "The app's token is not allowed to do that.";
  if (status === 404) {
    if (channel === 'tokens:revoke') return 'This token no longer exists: it was already revoked.';
    if (review)
      return 'This review no longer exists on the service (it may have been removed after its retention period).';
    return 'The service does not know this item.';
  }
  if (status === 409 && channel === 'reviews:cancel')
    return 'This review has already finished: there is nothing to cancel.';
  if (status === 408 || code === 'request_timeout') return 'The request took too long to reach the service. Try again.';
  if (code === 'service_unavailable' || status === 503)
    return `The service is starting or stopping. Try again ${after(refusal.retryAfterSeconds)}.`;
  if (status >= 500) return 'The service failed while handling this. Try again; if it keeps failing, its log says why.';
  return `The service refused this request (HTTP ${status}). The app log has its reason.`;
}
