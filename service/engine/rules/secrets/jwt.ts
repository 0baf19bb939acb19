// JSON Web Tokens are everywhere in tests and docs, and most are harmless (a public anon key, an
// expired example). One that grants a privileged role is a credential: a Supabase service_role
// key, an admin token. A JWT's header is JSON that names its algorithm: a value whose header is
// not is no JWT.

/** Roles and scopes that give more than a user's own access. */
const PRIVILEGED =
  /^(?:service[_-]?role|admin|administrator|superuser|super[_-]?admin|root|owner|system|supabase_admin)$/i;

function decodeSegment(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A JWT's claims: its payload's object ({} when it is none). */
function claimsOf(token: string): Record<string, unknown> {
  const payload = decodeSegment(token.split('.')[1] ?? '');
  return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
}

/** The Supabase CLI's local development keys: the same on every machine, published in its documentation. */
const isPublishedSample = (claims: Record<string, unknown>): boolean => claims['iss'] === 'supabase-demo';

/** The token's claims name a privileged role (role, roles, scope, scp, groups, is_admin). */
export function privilegedJwt(token: string): boolean {
  const claims = claimsOf(token);
  if (isPublishedSample(claims)) return false;
  if (claims['is_admin'] === true || claims['admin'] === true) return true;
  for (const key of ['role', 'roles', 'scope', 'scp', 'groups', 'https://hasura.io/jwt/claims']) {
    const value = claims[key];
    const values =
      typeof value === 'string'
        ? value.split(/[\s,]+/)
        : Array.isArray(value)
          ? value
          : typeof value === 'object' && value !== null
            ? Object.values(value).flat()
            : [];
    if (values.some((v) => typeof v === 'string' && PRIVILEGED.test(v))) return true;
  }
  return false;
}

/** A JWT's header decodes to a JSON object that names its algorithm (RFC 7515: `alg` is required). */
export function isJwtStructured(token: string): boolean {
  const header = decodeSegment(token.split('.')[0] ?? '');
  return (
    typeof header === 'object' && header !== null && typeof (header as Record<string, unknown>)['alg'] === 'string'
  );
}

/** The claims' `exp` is in the past: the token no longer grants anything. */
function hasExpired(claims: Record<string, unknown>): boolean {
  const exp = claims['exp'];
  return typeof exp === 'number' && exp * 1000 < Date.now();
}

/**
 * A JWT-shaped value (three base64url segments, the first a JSON object's) is worth reporting only
 * well-formed, signed (an unsigned one, alg none, anyone can make), unexpired and not a published sample.
 */
export function isLiveJwt(token: string): boolean {
  if (!isJwtStructured(token) || (token.split('.')[2] ?? '').length < 16) return false;
  const claims = claimsOf(token);
  return !hasExpired(claims) && !isPublishedSample(claims);
}

/** A Kubernetes service account token: issued by kubernetes/serviceaccount (legacy, never expires) or carrying kubernetes.io claims. */
export function isKubernetesServiceAccountJwt(token: string): boolean {
  const claims = claimsOf(token);
  return claims['iss'] === 'kubernetes/serviceaccount' || typeof claims['kubernetes.io'] === 'object';
}
