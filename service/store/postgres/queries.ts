// How the PostgreSQL store talks to the database, once for all its parts: reads, writes and
// transactions through the pool, with failures named for the layers above. A database out of
// reach is ServiceUnavailableError (answered 503: try again); a write the database refused is
// StoreWriteError; nothing of the connection string or the driver's message goes up.
import type pg from 'pg';
import { ServiceUnavailableError } from '../../api/errors.ts';
import { StoreWriteError } from '../types.ts';

/** What a failed query becomes for the layers above. */
type Failure = (error: unknown) => unknown;

/** A read's: a database out of reach is ServiceUnavailableError, anything else goes up as it is. */
const readFailure: Failure = (error) =>
  isConnectionError(error) ? new ServiceUnavailableError({ cause: error }) : error;

/** A write's: a database out of reach is ServiceUnavailableError, any other failure StoreWriteError. */
const writeFailure: Failure = (error) =>
  isConnectionError(error) ? new ServiceUnavailableError({ cause: error }) : new StoreWriteError(error);

/** One statement through the pool, its failure named by `failure`. */
function query(failure: Failure) {
  return async <R extends pg.QueryResultRow>(pool: pg.Pool, sql: string, params: unknown[]) => {
    try {
      return await pool.query<R>(sql, params);
    } catch (error) {
      throw failure(error);
    }
  };
}

export const read = query(readFailure);
export const write = query(writeFailure);

/**
 * Runs `work` on a connection of its own from the pool. A connection that breaks meanwhile (the
 * server restarting, its backend terminated), or that `work` marks broken, is dropped rather than
 * reused. While checked out, a client's 'error' event has no listener of the pool's, and pg emits
 * one when the connection ends under it: unheard, it would end the process.
 */
export async function withConnection<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, markBroken: (error: Error) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const markBroken = (error: Error) => {
    broken ??= error;
  };
  client.on('error', markBroken);
  try {
    return await work(client, markBroken);
  } finally {
    client.removeListener('error', markBroken);
    client.release(broken);
  }
}

/**
 * Runs `work` in one transaction on one connection; it says whether to commit. A failure rolls
 * back and goes up as it is (migrations name their own errors).
 */
export function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<{ commit: boolean; value: T }>,
): Promise<T> {
  return withConnection(pool, async (client, markBroken) => {
    try {
      await client.query('BEGIN');
      const { commit, value } = await work(client);
      await client.query(commit ? 'COMMIT' : 'ROLLBACK');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(markBroken); // one that cannot even roll back is dropped
      throw error;
    }
  });
}

/** inTransaction(), its failures named as write()'s. */
export async function transaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<{ commit: boolean; value: T }>,
): Promise<T> {
  try {
    return await inTransaction(pool, work);
  } catch (error) {
    throw writeFailure(error);
  }
}

/** A failure to reach the server at all (as opposed to an error the server answered). */
export function isConnectionError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === undefined) return /timeout|terminated|Connection/i.test(String((error as Error)?.message));
  // libpq-style classes: 08 connection exception, 28 invalid authorization, 3D invalid catalog (no such database),
  // 57P01-3 the server is shutting down or restarting; and TLS refusing the server's certificate
  // (sslmode=verify-ca/verify-full: DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID, ...)
  return /^(E[A-Z]+|08...|28...|3D000|57P0[1-3]|ERR_TLS_\w+|\w*CERT\w*)$/.test(code);
}
