// What the PostgreSQL store does beyond the shared contract (store-contract.ts): how it fails to
// start, what it says about the database, and that it outlives a restart of the server.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDatabase, DatabaseUnreachableError } from '../../../service/store/postgres/database-url.ts';
import { PostgresStore } from '../../../service/store/postgres/postgres-store.ts';
import { withConnection } from '../../../service/store/postgres/queries.ts';
import { postgresAvailable, scalar, startPostgres, type PostgresCluster } from '../../support/postgres.ts';

const lines: string[] = [];
const log = {
  info: (d: object, m: string) => lines.push(JSON.stringify({ m, ...d })),
  warn: (d: object, m: string) => lines.push(JSON.stringify({ m, ...d })),
  error: (d: object, m: string) => lines.push(JSON.stringify({ m, ...d })),
};

describe('database URLs in messages', () => {
  it('name host, port and database, never the user or password', () => {
    expect(describeDatabase('postgres://review:s3cr3t-pw@db.internal:6543/reviews?sslmode=require')).toBe(
      'db.internal:6543/reviews',
    );
    expect(describeDatabase('postgresql://u:p@localhost/x')).toBe('localhost:5432/x');
    expect(describeDatabase('not a url s3cr3t')).not.toContain('s3cr3t');
  });
});

describe.skipIf(!postgresAvailable())('PostgreSQL store', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.destroy());

  // pg emits 'error' on a checked-out client whose connection ends; with nothing listening, the
  // whole process ended (seen when a transaction's backend was cut while it ran).
  it('a connection cut while checked out neither ends the process nor goes back to the pool', async () => {
    const url = await cluster.createDatabase();
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const cut = await withConnection(pool, async (client) => {
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        const ended = new Promise((resolve) => client.once('end', resolve));
        await scalar(url, 'SELECT count(*) FROM (SELECT pg_terminate_backend($1)) AS t', [rows[0]!.pid]);
        await ended; // the 'error' event came first
        return rows[0]!.pid;
      });
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(rows[0]!.pid).not.toBe(cut);
    } finally {
      await pool.end();
    }
  });

  it('an unreachable server fails the start with one clear message, without the password', async () => {
    const url = `postgres://postgres:s3cr3t-pw@127.0.0.1:1/reviews`;
    const error = await PostgresStore.open(url, { connectTimeoutMs: 2000, log }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    expect((error as Error).message).toBe(
      'cannot connect to PostgreSQL at 127.0.0.1:1/reviews: nothing listens there (ECONNREFUSED)',
    );
    expect(JSON.stringify(error)).not.toContain('s3cr3t');
  });

  it('a database that does not exist is named in the message', async () => {
    const url = `postgres://postgres:s3cr3t-pw@127.0.0.1:${cluster.port}/no_such_db`;
    const error = await PostgresStore.open(url, { log }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    expect((error as Error).message).toBe(
      `cannot connect to PostgreSQL at 127.0.0.1:${cluster.port}/no_such_db: the database does not exist (create it, owned by the URL's user) (3D000)`,
    );
    expect((error as Error).message).not.toContain('s3cr3t');
  });

  it('a URL that is not postgres:// is refused in one line, before any connection', async () => {
    const error = await PostgresStore.open('mysql://root:s3cr3t-pw@127.0.0.1:1/reviews', { log }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    expect((error as Error).message).toBe(
      'cannot connect to PostgreSQL at 127.0.0.1:1/reviews: the URL must start with postgres:// or postgresql://',
    );
  });

  it('a wrong password is said in words, without the password', async () => {
    const guarded = await startPostgres({ password: 'right-pw' });
    try {
      const url = `postgres://postgres:s3cr3t-wrong@127.0.0.1:${guarded.port}/postgres`;
      const error = await PostgresStore.open(url, { log }).catch((e: unknown) => e);
      expect((error as Error).message).toBe(
        `cannot connect to PostgreSQL at 127.0.0.1:${guarded.port}/postgres: the password was refused (check the URL's user and password) (28P01)`,
      );
      // and the right one works
      const store = await PostgresStore.open(guarded.adminUrl, { log });
      await store.close();
    } finally {
      await guarded.destroy();
    }
    expect(lines.join('')).not.toContain('s3cr3t');
  });

  it('outlives a restart of the server: idle connections that broke are replaced', async () => {
    const store = await PostgresStore.open(await cluster.createDatabase(), { poolSize: 2, log });
    try {
      await store.putIdempotency({
        owner: 'o',
        key: 'k',
        request_hash: 'h',
        review_id: 'rev_x',
        created_at: '2026-01-01T00:00:00.000Z',
      });
      await cluster.stop();
      await cluster.start();
      // once the pool has heard of its broken connections (a read before may meet one and answer 503)
      await expect
        .poll(
          () =>
            store.getIdempotency('o', 'k').then(
              (r) => r?.review_id,
              (e: Error) => e.name,
            ),
          {
            timeout: 30_000,
            message: 'a read after the restart',
          },
        )
        .toBe('rev_x');
      expect(lines.join('\n')).not.toContain('postgres:');
    } finally {
      await store.close();
    }
  });

  it('a periodic task (retention) is claimed by one instance per period, whoever asks first', async () => {
    const url = await cluster.createDatabase();
    const stores = await Promise.all([1, 2, 3].map(() => PostgresStore.open(url, { poolSize: 2, log })));
    try {
      const hour = 60 * 60 * 1000;
      const at = (ms: number) => new Date(Date.parse('2026-11-21T00:00:00.000Z') + ms).toISOString();
      const first = await Promise.all(stores.map((s) => s.claimPeriodicTask('retention', hour, at(0))));
      expect(first.filter(Boolean)).toHaveLength(1);
      // within the period nobody runs it again; exactly at its end, one does
      expect(await stores[1]!.claimPeriodicTask('retention', hour, at(hour - 1))).toBe(false);
      const next = await Promise.all(stores.map((s) => s.claimPeriodicTask('retention', hour, at(hour))));
      expect(next.filter(Boolean)).toHaveLength(1);
      // another task has its own period
      expect(await stores[2]!.claimPeriodicTask('other', hour, at(hour))).toBe(true);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
