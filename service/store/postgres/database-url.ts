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
