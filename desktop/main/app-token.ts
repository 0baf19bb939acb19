// The review token the app uses itself on one service. Made with the dashboard token, kept in the
// credential store (never handed to the renderer), and reused for as long as the service lists it.
import type { DiffReviewClient } from '../../service/client/index.ts';
import { APP_TOKEN_NAME, type TokenRecord } from '../shared/ipc-contract.ts';
import type { CredentialStore } from './credential-store.ts';

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
  /** The secret in use, if any (else the stored one is tried). */
  current?: string | undefined;
  log: (level: 'info', message: string, details: Record<string, unknown>) => void;
}

/**
 * The app token to use: the current or stored secret when the service still lists it unexpired,
 * else a new one (saved in the credential store).
 */
export async function provisionAppToken(options: ProvisionAppTokenOptions): Promise<AppToken> {
  const { url, dashboard, tokens, credentials } = options;
  const stored = options.current ?? credentials.appToken(url);
  const now = Date.now();
  const usable = (record: TokenRecord) => record.expires_at === null || Date.parse(record.expires_at) > now;
  const record = stored ? tokens.find((t) => t.name === APP_TOKEN_NAME && stored.startsWith(t.prefix) && usable(t)) : undefined;
  if (stored && record) return { secret: stored, id: record.id };

  // Tokens under our name whose secret we no longer have (another install, a lost keychain)
  // are useless to everyone: revoke them rather than let them pile up.
  for (const orphan of tokens.filter((t) => t.name === APP_TOKEN_NAME)) {
    await dashboard.deleteToken(orphan.id).catch(() => {});
  }
  const created = await dashboard.createToken({ name: APP_TOKEN_NAME, scopes: ['reviews:read', 'reviews:write'], expires_in_days: null });
  credentials.setAppToken(url, created.token);
  options.log('info', 'created the app\'s review token', { id: created.id });
  return { secret: created.token, id: created.id };
}
