// Review API tokens and the dashboard token: minting, authentication (the check itself is
// verify-token.ts), listing, revoking.
import { monotonicFactory } from 'ulid';
import { LIMITS } from '../api/limits.ts';
import { NotFoundError } from '../api/errors.ts';
import type { CreateTokenBody, CreatedToken, ReviewScope, TokenRecord } from '../api/schemas.ts';
import type { Clock } from '../clock.ts';
import type { SyncTokenLookup } from '../store/in-memory-lookups.ts';
import type { Scope, StoredToken, TokenStore } from '../store/types.ts';
import { REVIEW_SCOPES } from './review-scopes.ts';
import { hashSecret, mintSecret, secretPrefix } from './secret.ts';
import { presentedHash, verifyToken, type AuthRequirement, type Principal } from './verify-token.ts';

export const DASHBOARD_SCOPES: Scope[] = ['tokens:read', 'tokens:write'];
const DAY_MS = 24 * 60 * 60 * 1000;
/** Strictly increasing ids, also within one millisecond: the list is newest first by id. */
const nextUlid = monotonicFactory();

export class TokenService {
  readonly #store: TokenStore;
  readonly #clock: Clock;
  readonly #atHand: SyncTokenLookup | undefined;
  /** last_used_at of the latest request: requests within one millisecond share the string. */
  #usedAt = { ms: NaN, iso: '' };

  /** `atHand`: the store's synchronous lookup, where it has one (see authenticateSync). */
  constructor(store: TokenStore, clock: Clock, atHand?: SyncTokenLookup) {
    this.#store = store;
    this.#clock = clock;
    this.#atHand = atHand;
  }

  /** Checks `Authorization: Bearer <secret>` against what the endpoint needs. */
  async authenticate(authorization: string | undefined, need: AuthRequirement): Promise<Principal> {
    const hash = presentedHash(authorization);
    const token = await this.#store.getTokenByHash(hash);
    const now = this.#clock.now();
    return this.#used(verifyToken(token, hash, need, now), now);
  }

  /**
   * authenticate() without a promise, where the tokens are at hand (every authenticated request
   * comes here): the principal, or the same error thrown; undefined when they are not, and
   * authenticate() must be awaited instead.
   */
  authenticateSync(authorization: string | undefined, need: AuthRequirement): Principal | undefined {
    const atHand = this.#atHand;
    if (atHand === undefined || atHand.tokensAtHand?.() === false) return undefined;
    // Copies kept current by NOTIFY lag a change made elsewhere by moments: the dashboard token
    // (rare requests; rotated by another process) is always checked against the store itself.
    if (need.type === 'dashboard' && atHand.tokensAtHand) return undefined;
    const hash = presentedHash(authorization);
    const token = atHand.getTokenByHashSync(hash);
    if (token === undefined && atHand.tokensAtHand) return undefined; // a copy lacks it: maybe new elsewhere
    const now = this.#clock.now();
    return this.#used(verifyToken(token, hash, need, now), now);
  }

  /** Records the use (last_used_at) of a token that checked out. */
  #used(principal: Principal, now: number): Principal {
    if (this.#usedAt.ms !== now) this.#usedAt = { ms: now, iso: new Date(now).toISOString() };
    this.#store.touchToken(principal.tokenId, this.#usedAt.iso);
    return principal;
  }

  async createReviewToken(owner: string, body: CreateTokenBody): Promise<CreatedToken> {
    const now = this.#clock.now();
    const days = body.expires_in_days === undefined ? LIMITS.tokenDefaultDays : body.expires_in_days;
    const secret = mintSecret();
    const stored: StoredToken = {
      id: `tok_${nextUlid(now)}`,
      owner,
      type: 'review',
      name: body.name,
      scopes: body.scopes ?? [...REVIEW_SCOPES],
      prefix: secretPrefix(secret),
      hash: hashSecret(secret),
      created_at: new Date(now).toISOString(),
      expires_at: days === null ? null : new Date(now + days * DAY_MS).toISOString(),
      last_used_at: null,
    };
    await this.#store.insertToken(stored);
    return { ...toTokenRecord(stored), token: secret };
  }

  async list(owner: string): Promise<TokenRecord[]> {
    return (await this.#store.listTokens(owner, 'review')).map(toTokenRecord);
  }

  async revoke(owner: string, id: string): Promise<void> {
    const token = await this.#store.getToken(id);
    // Another owner's token, the dashboard token and a revoked one all look alike: not found.
    if (!token || token.owner !== owner || token.type !== 'review' || token.revoked_at)
      throw new NotFoundError(`Token ${id}`);
    await this.#store.updateToken(id, { revoked_at: new Date(this.#clock.now()).toISOString() });
  }
}

export function toTokenRecord(token: StoredToken): TokenRecord {
  return {
    id: token.id,
    name: token.name,
    type: 'review',
    scopes: token.scopes.filter((s): s is ReviewScope => s.startsWith('reviews:')),
    prefix: token.prefix,
    created_at: token.created_at,
    expires_at: token.expires_at,
    last_used_at: token.last_used_at,
  };
}
