// API tokens in PostgreSQL (the TokenStore). A revocation made here is seen by this instance at
// once (the copies at hand are read again), by the others through NOTIFY. Uses of a token are
// written in one statement every TOUCH_FLUSH_MS, never backwards.
import type pg from 'pg';
import type { TokenStore } from '../token-store.ts';
import type { StoredToken, TokenType } from '../types.ts';
import type { PostgresAtHand } from './at-hand.ts';
import { read, write } from './queries.ts';
import { TOKEN_COLUMNS, toStoredToken, type TokenRow } from './rows.ts';

/** last_used_at is not worth a write per request: the latest use of each token goes in one write this often. */
const TOUCH_FLUSH_MS = 2000;

export class PostgresTokens implements TokenStore {
  readonly #pool: pg.Pool;
  readonly #atHand: PostgresAtHand;
  /** Uses of tokens not yet written: token id → last_used_at. */
  #touched = new Map<string, string>();
  #touchTimer: NodeJS.Timeout | null = null;

  constructor(pool: pg.Pool, atHand: PostgresAtHand) {
    this.#pool = pool;
    this.#atHand = atHand;
  }

  async insertToken(token: StoredToken) {
    const values = TOKEN_COLUMNS.map((column) => token[column] ?? null);
    await write(
      this.#pool,
      `INSERT INTO tokens (${TOKEN_COLUMNS.join(', ')}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`,
      values,
    );
  }

  async getTokenByHash(hash: string) {
    const { rows } = await read<TokenRow>(this.#pool, 'SELECT * FROM tokens WHERE hash = $1', [hash]);
    return rows[0] && this.#withTouch(toStoredToken(rows[0]));
  }

  async getToken(id: string) {
    const { rows } = await read<TokenRow>(this.#pool, 'SELECT * FROM tokens WHERE id = $1', [id]);
    return rows[0] && this.#withTouch(toStoredToken(rows[0]));
  }

  async listTokens(owner: string, type: TokenType) {
    const { rows } = await read<TokenRow>(
      this.#pool,
      'SELECT * FROM tokens WHERE owner = $1 AND type = $2 AND revoked_at IS NULL ORDER BY id DESC',
      [owner, type],
    );
    return rows.map((row) => this.#withTouch(toStoredToken(row)));
  }

  async updateToken(id: string, patch: Partial<StoredToken>) {
    const columns = TOKEN_COLUMNS.filter((column) => column !== 'id' && column in patch);
    if (columns.length === 0) return;
    const sets = columns.map((column, i) => `${column} = $${i + 2}`);
    const { rowCount } = await write(this.#pool, `UPDATE tokens SET ${sets.join(', ')} WHERE id = $1`, [
      id,
      ...columns.map((column) => patch[column] ?? null),
    ]);
    if (rowCount === 0) throw new Error(`no token ${id}`);
    await this.#atHand.tokenChanged(id).catch(() => {}); // this instance sees its own change (a revocation) at once
  }

  touchToken(id: string, at: string) {
    this.#touched.set(id, at);
    this.#touchTimer ??= setTimeout(() => void this.#flushTouches().catch(() => {}), TOUCH_FLUSH_MS).unref();
  }

  /** Writes the uses not written yet (on close). */
  async close() {
    if (this.#touchTimer) clearTimeout(this.#touchTimer);
    await this.#flushTouches().catch(() => {});
  }

  /** A use not written yet is still seen by this instance's reads. */
  #withTouch(token: StoredToken): StoredToken {
    const at = this.#touched.get(token.id);
    if (at !== undefined && (token.last_used_at === null || at > token.last_used_at)) token.last_used_at = at;
    return token;
  }

  async #flushTouches() {
    this.#touchTimer = null;
    if (this.#touched.size === 0) return;
    const touched = this.#touched;
    this.#touched = new Map();
    // Never backwards: another instance may have written a later use.
    await this.#pool.query(
      `UPDATE tokens SET last_used_at = t.at FROM unnest($1::text[], $2::timestamptz[]) AS t(id, at)
       WHERE tokens.id = t.id AND (tokens.last_used_at IS NULL OR tokens.last_used_at < t.at)`,
      [[...touched.keys()], [...touched.values()]],
    );
  }
}
