// API tokens: only their hashes are kept; every authenticated request looks one up.
import type { StoredToken, TokenType } from './types.ts';

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
