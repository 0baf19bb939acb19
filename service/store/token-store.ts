// API tokens: only their hashes are kept; every authenticated request looks one up.
import type { StoredToken, TokenType } from './types.ts';

/**
 * What every store guarantees (tested for each in test/service/store/store-contract.ts):
 * **a change of a token is seen at once.** Once updateToken resolves (a revocation, a new secret),
 * every lookup of this store answers the token as changed: getToken, getTokenByHash, and the
 * lookup without a promise where the store offers one (InMemoryLookups.getTokenByHashSync; a copy
 * of another process's tokens may lack the token, never answer it as it was). The old hash of a
 * new secret finds nothing, and listTokens leaves a revoked token out.
 */
export interface TokenStore {
  insertToken(token: StoredToken): Promise<void>;
  getTokenByHash(hash: string): Promise<StoredToken | undefined>;
  getToken(id: string): Promise<StoredToken | undefined>;
  /** Not revoked, newest first. */
  listTokens(owner: string, type: TokenType): Promise<StoredToken[]>;
  updateToken(id: string, patch: Partial<StoredToken>): Promise<void>;
  /** Best-effort, coalesced: last_used_at is not worth a write per request. */
  touchToken(id: string, at: string): void;
}
