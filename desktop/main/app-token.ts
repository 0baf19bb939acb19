// The review token the app uses itself on one service. Made with the dashboard token, kept in the
// credential store with its id (never handed to the renderer), and reused for as long as the
// service lists that id. The app knows its token by id only: a token merely named like it may be
// a user's own or another installation's, and is never touched (issue 14, Security 1).
import type { DiffReviewClient } from '../../service/client/index.ts';
import { APP_TOKEN_NAME, type TokenRecord } from '../shared/ipc-contract.ts';
import type { CredentialStore, StoredAppToken } from './credential-store.ts';

export interface AppToken {
  secret: string;
  id: string;
}

export interface ProvisionAppTokenOptions {
  /** The service's address: the credential store keeps one app token per service. */
  url: string;
  /** A client with the dashboard token. */
  dashboard: DiffReviewClient;
  /** The service's token list, as the dashboard token sees it. */
  tokens: readonly TokenRecord[];
  credentials: CredentialStore;
  /** The token in use, if any (else the stored one is tried). */
  current?: AppToken | undefined;
  log: (level: 'info', message: string, details: Record<string, unknown>) => void;
}

const usable = (record: TokenRecord, now: number) => record.expires_at === null || Date.parse(record.expires_at) > now;

/** The service's record of the stored token, when it still lists it. */
function findOwn(stored: StoredAppToken, tokens: readonly TokenRecord[]): TokenRecord | undefined {
  if (stored.id) return tokens.find((t) => t.id === stored.id && stored.secret.startsWith(t.prefix));
  // A secret stored before ids were kept: adopt the one record its prefix and name point to.
  const candidates = tokens.filter((t) => t.name === APP_TOKEN_NAME && stored.secret.startsWith(t.prefix));
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * The app token to use: the current or stored one when the service still lists its id unexpired,
 * else a new one (saved with its id). Only a token of ours that expired is revoked.
 */
export async function provisionAppToken(options: ProvisionAppTokenOptions): Promise<AppToken> {
  const { url, dashboard, tokens, credentials } = options;
  const stored = options.current ?? credentials.appToken(url);
  const record = stored ? findOwn(stored, tokens) : undefined;
  if (stored && record && usable(record, Date.now())) {
    if (stored.id !== record.id) credentials.setAppToken(url, { secret: stored.secret, id: record.id });
    return { secret: stored.secret, id: record.id };
  }
  // Ours but expired: nobody can use it, and it is ours to revoke.
  if (record) await dashboard.deleteToken(record.id).catch(() => {});
  const created = await dashboard.createToken({
    name: APP_TOKEN_NAME,
    scopes: ['reviews:read', 'reviews:write'],
    expires_in_days: null,
  });
  credentials.setAppToken(url, { secret: created.token, id: created.id });
  options.log('info', "created the app's review token", { id: created.id });
  return { secret: created.token, id: created.id };
}
