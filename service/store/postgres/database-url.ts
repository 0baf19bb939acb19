// What may be said about a database URL: host, port and database, never the user's password.
// Every message about the database goes through describeDatabase().

/** host:port/database of a postgres:// URL (or "the database URL" when it cannot be parsed). */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default database)';
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}/${database}`;
  } catch {
    return 'the database URL (it could not be parsed)';
  }
}

/**
 * The connection string with sslmode read as libpq (psql, every PostgreSQL tool) reads it:
 * `require` encrypts without verifying the certificate, `verify-ca`/`verify-full` verify,
 * `disable` does not encrypt. node-postgres alone reads `require` as `verify-full` (and prints a
 * deprecation warning), so a server psql reaches with a self-signed certificate would be refused.
 * Every connection the service opens goes through here.
 */
export function libpqConnectionString(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.searchParams.has('sslmode') || parsed.searchParams.has('uselibpqcompat')) return url;
    parsed.searchParams.set('uselibpqcompat', 'true');
    return parsed.toString();
  } catch {
    return url; // node-postgres says what is wrong with it
  }
}

/** What the common failures at start mean, in words; the code follows in parentheses. */
const MEANINGS: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'no answer',
  EHOSTUNREACH: 'the host cannot be reached',
  '28P01': "the password was refused (check the URL's user and password)",
  '28000': 'the server does not let this user in from here (pg_hba.conf)',
  '3D000': "the database does not exist (create it, owned by the URL's user)",
  '57P03': 'the server is starting up or shutting down; try again in a moment',
  '53300': 'the server has no connection left (max_connections)',
};

/** The database could not be reached or refused us at start. */
export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';

  constructor(url: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException)?.code;
    const message = String((cause as Error)?.message ?? cause);
    let why: string;
    if (code !== undefined) why = MEANINGS[code] ? `${MEANINGS[code]} (${code})` : code;
    else if (/timeout/i.test(message)) why = 'no answer in time (a firewall, or the wrong host or port?)';
    else why = message;
    super(`cannot connect to PostgreSQL at ${describeDatabase(url)}: ${why}`);
    // The cause's own message may quote the connection string: kept off the error (and so off any log).
  }
}

/** A URL that is not postgres:// or postgresql:// (node-postgres would try it anyway). */
export function checkDatabaseUrl(url: string): void {
  let scheme: string | undefined;
  try {
    scheme = new URL(url).protocol;
  } catch {
    // (the unparsable URL itself may hold the password: never quoted)
  }
  if (scheme !== 'postgres:' && scheme !== 'postgresql:')
    throw new DatabaseUnreachableError(url, new Error('the URL must start with postgres:// or postgresql://'));
}
