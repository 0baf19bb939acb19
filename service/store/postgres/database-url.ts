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

/** The database could not be reached or refused us at start. */
export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';

  constructor(url: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException)?.code;
    const why = code ?? (cause as Error)?.message ?? String(cause);
    super(`cannot connect to PostgreSQL at ${describeDatabase(url)}: ${why}`);
    // The cause's own message may quote the connection string: kept off the error (and so off any log).
  }
}
