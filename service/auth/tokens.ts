// Review API tokens and the dashboard token: minting, verification, scopes, listing, revoking.
import { monotonicFactory } from 'ulid';
import { LIMITS } from '../api/limits.ts';
import { InsufficientScopeError, NotFoundError, TokenExpiredError, UnauthorizedError } from '../api/errors.ts';
import type { CreateTokenBody, CreatedToken, ReviewScope, TokenRecord } from '../api/schemas.ts';
import type { Scope, StoredToken, TokenStore, TokenType } from '../store/types.ts';
import { hashSecret, mintSecret, sameDigest, secretPrefix } from './secret.ts';
import type { Clock } from '../clock.ts';

export const REVIEW_SCOPES: ReviewScope[] = ['reviews:read', 'reviews:write'];
export const DASHBOARD_SCOPES: Scope[] = ['tokens:read', 'tokens:write'];
const DAY_MS = 24 * 60 * 60 * 1000;
/** Strictly increasing ids, also within one millisecond: the list is newest first by id. */
const nextUlid = monotonicFactory();

/** Who is calling, once the bearer token checked out. */
export interface Principal {
  tokenId: string;
  owner: string;
  type: TokenType;
  scopes: Scope[];
}

/** What an endpoint demands of the token. */
export interface AuthRequirement {
  type: TokenType;
  scope: Scope;
}

export class TokenService {
  readonly #store: TokenStore;
  readonly #clock: Clock;
  /** last_used_at of the latest request: requests within one millisecond share the string. */
  #usedAt = { ms: NaN, iso: '' };

  constructor(store: TokenStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Checks `Authorization: Bearer <secret>` against what the endpoint needs. */
  async authenticate(authorization: string | undefined, need: AuthRequirement): Promise<Principal> {
    const hex = bearerHash(authorization);
    return this.#verify(hex, await this.#store.getTokenByHash(hex), need);
  }

  /**
   * authenticate() without a promise, where the store can look tokens up synchronously (every
   * authenticated request comes here): the principal, or the same error thrown; undefined when
   * the store cannot, and authenticate() must be awaited instead.
   */
  authenticateSync(authorization: string | undefined, need: AuthRequirement): Principal | undefined {
    if (this.#store.getTokenByHashSync === undefined) return undefined;
    const hex = bearerHash(authorization);
    return this.#verify(hex, this.#store.getTokenByHashSync(hex), need);
  }

  #verify(hex: string, token: StoredToken | undefined, need: AuthRequirement): Principal {
    const known = token === undefined ? undefined : derived(token);
    presented.write(hex, 0, 'hex'); // into a buffer of its own: no allocation per request (this runs synchronously)
    if (token === undefined || known === undefined || !sameDigest(known.digest, presented) || token.revoked_at) {
      throw new UnauthorizedError('invalid');
    }
    const now = this.#clock.now();
    if (known.expiresMs <= now) throw new TokenExpiredError(token.expires_at!);
    if (token.type !== need.type || !token.scopes.includes(need.scope)) {
      const what = need.type === 'dashboard' ? 'the dashboard token' : 'a review API token';
      throw new InsufficientScopeError(
        token.type !== need.type
          ? `This endpoint needs ${what}; a ${token.type === 'dashboard' ? 'dashboard token' : 'review API token'} was sent.`
          : `The token lacks the scope ${need.scope}.`,
        need.scope,
      );
    }
    if (this.#usedAt.ms !== now) this.#usedAt = { ms: now, iso: new Date(now).toISOString() };
    this.#store.touchToken(token.id, this.#usedAt.iso);
    return { tokenId: token.id, owner: token.owner, type: token.type, scopes: token.scopes };
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
    if (!token || token.owner !== owner || token.type !== 'review' || token.revoked_at) throw new NotFoundError(`Token ${id}`);
    await this.#store.updateToken(id, { revoked_at: new Date(this.#clock.now()).toISOString() });
  }
}

/** The SHA-256 (hex) of the secret of `Authorization: Bearer <secret>`, or the 401 of a malformed or missing header. */
function bearerHash(authorization: string | undefined): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new UnauthorizedError(authorization ? 'malformed' : 'missing');
  return hashSecret(match[1]!); // hex first: a Buffer out of the hash costs more than hex and decoding it
}

/** The presented secret's SHA-256 as bytes, written here by each check rather than allocated. */
const presented = Buffer.alloc(32);

/**
 * What a check needs of a stored token in the form it needs it, derived once rather than on every
 * request: its hash as bytes and its expiry as a time (Infinity: never). Derived afresh when the
 * stored fields change.
 */
interface Derived {
  hash: string;
  digest: Buffer;
  expiresAt: string | null;
  expiresMs: number;
}
const deriveds = new WeakMap<StoredToken, Derived>();
function derived(token: StoredToken): Derived {
  let known = deriveds.get(token);
  if (known === undefined || known.hash !== token.hash || known.expiresAt !== token.expires_at) {
    const expiresMs = token.expires_at === null ? Infinity : Date.parse(token.expires_at);
    deriveds.set(token, (known = { hash: token.hash, digest: Buffer.from(token.hash, 'hex'), expiresAt: token.expires_at, expiresMs }));
  }
  return known;
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
