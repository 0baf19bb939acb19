// Schema migrations on a real PostgreSQL: from an empty database, from the previous version with
// data in it, several instances starting at once, and a schema newer than the code.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate, SchemaTooNewError, schemaVersions } from '../../../service/store/postgres/migrations.ts';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../../support/postgres.ts';

const pools: pg.Pool[] = [];
let cluster: PostgresCluster;
const poolFor = (connectionString: string) => {
  const pool = new pg.Pool({ connectionString, max: 2 });
  pools.push(pool);
  return pool;
};

describe('shipped migrations', () => {
  // A migration that has shipped has run on databases already: editing it would leave them and new
  // ones with different schemas. A change is a new migration; only a new one may be added here.
  it('are never edited: each one is pinned by a hash of its SQL', () => {
    const hashes = MIGRATIONS.map((m) => [m.version, createHash('sha256').update(m.sql).digest('hex').slice(0, 16)]);
    expect(hashes).toEqual([
      [1, 'dcd5486217013981'],
      [2, '42e2c0861b6fb872'],
      [3, '4e488a11c7e89ca4'],
      [4, 'e9bfdcb9f98851cb'],
      [5, 'd7fce14bc00ad286'],
      [6, '7ebccf213229d565'],
    ]);
  });
});

describe.skipIf(!postgresAvailable())('PostgreSQL schema migrations', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await cluster?.destroy();
  });

  const all = MIGRATIONS.map((m) => m.version);

  it('applies every migration to an empty database, then none on the next start', async () => {
    const pool = poolFor(await cluster.createDatabase());
    expect(await migrate(pool)).toEqual(all);
    expect(await schemaVersions(pool)).toEqual(all);
    expect(await migrate(pool)).toEqual([]);
    const { rows } = await pool.query(
      "SELECT indexname FROM pg_indexes WHERE tablename = 'reviews' ORDER BY indexname",
    );
    expect(rows.map((r) => r.indexname)).toContain('reviews_owner_id');
  });

  it('upgrades a database at the previous version and keeps its rows', async () => {
    const pool = poolFor(await cluster.createDatabase());
    const previous = MIGRATIONS.slice(0, -1);
    expect(await migrate(pool, previous)).toEqual(previous.map((m) => m.version));
    await pool.query(
      `INSERT INTO reviews (review_id, owner, status, repository, created_at, updated_at) VALUES ('rev_01', 'tok_a', 'queued', 'r', now(), now())`,
    );
    expect(await migrate(pool)).toEqual([MIGRATIONS.at(-1)!.version]);
    expect(await schemaVersions(pool)).toEqual(all);
    const { rows } = await pool.query('SELECT review_id, status FROM reviews');
    expect(rows).toEqual([{ review_id: 'rev_01', status: 'queued' }]);
  });

  it('instances starting together apply each migration once, and all of them start', async () => {
    const url = await cluster.createDatabase();
    const applied = await Promise.all(Array.from({ length: 4 }, () => migrate(poolFor(url))));
    expect(applied.flat().sort()).toEqual(all);
    expect(applied.filter((a) => a.length > 0)).toHaveLength(1);
    expect(await schemaVersions(poolFor(url))).toEqual(all);
  });

  it('refuses a database migrated by a newer release, and changes nothing', async () => {
    const pool = poolFor(await cluster.createDatabase());
    await migrate(pool);
    const next = MIGRATIONS.at(-1)!.version + 1;
    await pool.query("INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')", [next]);
    await expect(migrate(pool)).rejects.toThrow(SchemaTooNewError);
    await expect(migrate(pool)).rejects.toThrow(`version ${next}`);
    expect(await schemaVersions(pool)).toEqual([...all, next]);
  });

  it('a migration that fails leaves the schema as it was', async () => {
    const pool = poolFor(await cluster.createDatabase());
    const broken = [
      ...MIGRATIONS,
      { version: 99, name: 'broken', sql: 'CREATE TABLE oops (x int); SELECT no_such_function()' },
    ];
    await expect(migrate(pool, broken)).rejects.toThrow(/no_such_function/);
    // one transaction: not even the earlier migrations of that run stay
    const { rows } = await pool.query(
      "SELECT to_regclass('reviews') AS t, to_regclass('oops') AS o, to_regclass('schema_migrations') AS m",
    );
    expect(rows[0]).toEqual({ t: null, o: null, m: null });
    expect(await migrate(pool)).toEqual(all);
  });
});
