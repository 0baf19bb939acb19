// The token check, once, for both ways a request is authenticated: the Fastify hook (which may
// await the store) and the poll answerer (which may not). Pure: the caller looks the token up,
// reads the clock and records the use, so the two paths cannot drift apart.
import { InsufficientScopeError, TokenExpiredError, UnauthorizedError } from '../api/errors.ts';
import type { Scope, StoredToken, TokenType } from '../store/types.ts';
import { hashSecret, sameDigest } from './secret.ts';

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

/**
 * The SHA-256 (hex) of the secret of `Authorization: Bearer <secret>`, which is what tokens are
 * looked up by; UnauthorizedError for a missing or malformed header.
 */
export function presentedHash(authorization: string | undefined): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new UnauthorizedError(authorization ? 'malformed' : 'missing');
  return hashSecret(match[1]!); // hex first: a Buffer out of the hash costs more than hex and decoding it
}

/**
 * The principal of the token found for `hash` (undefined: none was), checked at `now` against what
 * the endpoint needs; throws UnauthorizedError (unknown, revoked), TokenExpiredError (exactly at
 * expiry counts) or InsufficientScopeError (wrong type or scope).
 */
export function verifyToken(
  token: StoredToken | undefined,
  hash: string,
  need: AuthRequirement,
  now: number,
): Principal {
  const known = token === undefined ? undefined : derived(token);
  // In constant time, as the API contract promises, whatever way the store matched the hash.
  if (
    token === undefined ||
    known === undefined ||
    !sameDigest(known.digest, Buffer.from(hash, 'hex')) ||
    token.revoked_at
  ) {
    throw new UnauthorizedError('invalid');
  }
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
  return { tokenId: token.id, owner: token.owner, type: token.type, scopes: token.scopes };
}

/**
 * What a check needs of a stored token in the form it needs it, derived once rather than on every
 * request: its hash as bytes and its expiry as a time (Infinity: never). A memo of the token's own
 * fields (derived afresh when they change), so the check stays a function of its arguments.
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
    deriveds.set(
      token,
      (known = { hash: token.hash, digest: Buffer.from(token.hash, 'hex'), expiresAt: token.expires_at, expiresMs }),
    );
  }
  return known;
}
