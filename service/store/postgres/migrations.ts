// The PostgreSQL schema as versioned, forward-only migrations. Every instance applies what is
// missing at start, in one transaction under a transaction-scoped advisory lock: instances that
// start together queue on the lock, and the second finds the work done. A database whose schema
// is newer than this code is refused (an older instance must not write a layout it does not know).
// Never edit a migration that has shipped: add the next one.
import type pg from 'pg';
import { inTransaction } from './queries.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'reviews, review files, tokens, idempotency keys',
    sql: `
      CREATE TABLE reviews (
        review_id     text PRIMARY KEY,
        owner         text NOT NULL,
        status        text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        repository    text NOT NULL,
        base_commit   text,
        created_at    timestamptz(3) NOT NULL,
        updated_at    timestamptz(3) NOT NULL,
        started_at    timestamptz(3),
        completed_at  timestamptz(3),
        error_code    text,
        error_message text,
        attempts      integer NOT NULL DEFAULT 0
      );
      -- The bulky parts apart from the record: a create writes the diff before the record exists.
      -- bytea, not text: a diff may hold any character, NUL included, which text cannot.
      CREATE TABLE review_diffs (
        review_id text PRIMARY KEY,
        diff      bytea NOT NULL
      );
      CREATE TABLE review_findings (
        review_id text PRIMARY KEY,
        findings  json NOT NULL  -- json, not jsonb: kept as written (key order), and no parse on write
      );
      CREATE TABLE tokens (
        id           text PRIMARY KEY,
        owner        text NOT NULL,
        type         text NOT NULL CHECK (type IN ('review', 'dashboard')),
        name         text NOT NULL,
        scopes       text[] NOT NULL,
        prefix       text NOT NULL,
        hash         text NOT NULL UNIQUE,
        created_at   timestamptz(3) NOT NULL,
        expires_at   timestamptz(3),
        last_used_at timestamptz(3),
        revoked_at   timestamptz(3)
      );
      CREATE TABLE idempotency_keys (
        owner        text NOT NULL,
        key          text NOT NULL,
        request_hash text NOT NULL,
        review_id    text NOT NULL,
        created_at   timestamptz(3) NOT NULL,
        PRIMARY KEY (owner, key)
      );
    `,
  },
  {
    version: 2,
    name: 'indexes for listing, recovery and retention',
    sql: `
      CREATE INDEX reviews_owner_id ON reviews (owner, review_id DESC);
      CREATE INDEX reviews_unfinished ON reviews (review_id) WHERE status IN ('queued', 'running');
      CREATE INDEX reviews_finished_updated ON reviews (updated_at) WHERE status IN ('completed', 'failed');
      CREATE INDEX tokens_owner_type ON tokens (owner, type, id DESC) WHERE revoked_at IS NULL;
      CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
    `,
  },
  {
    version: 3,
    name: 'every change of a review is announced to all instances (NOTIFY)',
    // Payload "<review_id> <status>": instances re-read the review when someone follows it, and
    // stop a review they run once it has ended elsewhere (a cancel). Sent at commit, by the
    // database, whichever instance made the change.
    sql: `
      CREATE FUNCTION diff_review_announce_review() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('diff_review_reviews', NEW.review_id || ' ' || NEW.status);
        RETURN NULL;
      END $$;
      CREATE TRIGGER reviews_announce AFTER INSERT OR UPDATE ON reviews
        FOR EACH ROW EXECUTE FUNCTION diff_review_announce_review();
    `,
  },
  {
    version: 4,
    name: 'periodic tasks run by one instance per period',
    sql: `
      CREATE TABLE periodic_runs (
        task     text PRIMARY KEY,
        last_run timestamptz(3) NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'request counters shared by all instances (rate limits)',
    // UNLOGGED: a counter lost in a crash only gives a window back. One row per token and budget,
    // reused window after window, so the table stays as small as the number of tokens.
    sql: `
      CREATE UNLOGGED TABLE window_counters (
        key         text PRIMARY KEY,
        count       integer NOT NULL,
        window_ends timestamptz(3) NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'token changes and review deletions are announced too (NOTIFY)',
    // Instances keep tokens and finished reviews in memory for the hot paths: a token's change
    // (a revocation) and a review's deletion (retention) reach every instance's copy at commit.
    sql: `
      CREATE FUNCTION diff_review_announce_token() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('diff_review_tokens', COALESCE(NEW.id, OLD.id));
        RETURN NULL;
      END $$;
      CREATE TRIGGER tokens_announce AFTER INSERT OR UPDATE OR DELETE ON tokens
        FOR EACH ROW EXECUTE FUNCTION diff_review_announce_token();
      CREATE FUNCTION diff_review_announce_review_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('diff_review_reviews', OLD.review_id || ' deleted');
        RETURN NULL;
      END $$;
      CREATE TRIGGER reviews_announce_deleted AFTER DELETE ON reviews
        FOR EACH ROW EXECUTE FUNCTION diff_review_announce_review_deleted();
    `,
  },
];

/** Any constant unique to this application: the lock instances queue on while migrating. */
const MIGRATION_LOCK = 7_411_001;
/** A migration (or the wait for another instance's) may rewrite big tables: not the pool's query bound. */
const MIGRATION_TIMEOUT_MS = 3_600_000;
/** A statement with that bound (node-postgres reads query_timeout per query too; its types do not say so). */
const unbounded = (text: string, values: unknown[] = []) =>
  ({ text, values, query_timeout: MIGRATION_TIMEOUT_MS }) as pg.QueryConfig;

export class SchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(
      `the database's schema is at version ${found}, newer than this diff-review knows (${known}): ` +
        'it was migrated by a newer release. Run that release (migrations are forward-only).',
    );
    this.name = 'SchemaTooNewError';
  }
}

/**
 * Brings the schema up to the newest migration given. Returns the versions this call applied
 * (none when another instance had already done it).
 */
export async function migrate(pool: pg.Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return inTransaction(pool, async (client) => {
    await client.query(unbounded('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]));
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    const newest = Math.max(0, ...applied);
    const known = Math.max(0, ...migrations.map((m) => m.version));
    if (newest > known) throw new SchemaTooNewError(newest, known);
    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await client.query(unbounded(migration.sql));
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      done.push(migration.version);
    }
    return { commit: true, value: done };
  });
}

/** The versions applied to the database, in order. */
export async function schemaVersions(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  return rows.map((r) => r.version);
}
