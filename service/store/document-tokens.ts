// The tokens of the lowdb document, indexed by hash and by id: every authenticated request looks
// its token up, so the lookup is a Map, not a scan.
import type { StoreDocument } from './store-document.ts';
import type { StoredToken, TokenStore, TokenType } from './types.ts';

/** last_used_at is not worth a write per request: it is written with the next write, or after this long. */
const TOUCH_FLUSH_MS = 2000;

export class DocumentTokens implements TokenStore {
  readonly #document: () => StoreDocument;
  readonly #persist: () => Promise<void>;
  readonly #byHash = new Map<string, StoredToken>();
  readonly #byId = new Map<string, StoredToken>();
  #touchTimer: NodeJS.Timeout | null = null;

  constructor(document: () => StoreDocument, persist: () => Promise<void>) {
    this.#document = document;
    this.#persist = persist;
    for (const token of document().tokens) this.#index(token);
  }

  async insertToken(token: StoredToken) {
    const doc = this.#document();
    doc.tokens.push(token);
    this.#index(token);
    try {
      await this.#persist();
    } catch (error) {
      doc.tokens = doc.tokens.filter((t) => t !== token);
      this.#byHash.delete(token.hash);
      this.#byId.delete(token.id);
      throw error;
    }
  }

  async getTokenByHash(hash: string) {
    return this.#byHash.get(hash);
  }

  getTokenByHashSync(hash: string): StoredToken | undefined {
    return this.#byHash.get(hash);
  }

  async getToken(id: string) {
    return this.#byId.get(id);
  }

  async listTokens(owner: string, type: TokenType) {
    return this.#document()
      .tokens.filter((t) => t.owner === owner && t.type === type && !t.revoked_at)
      .sort((a, b) => (a.id < b.id ? 1 : -1));
  }

  async updateToken(id: string, patch: Partial<StoredToken>) {
    const token = this.#byId.get(id);
    if (!token) throw new Error(`no token ${id}`);
    if (patch.hash !== undefined && patch.hash !== token.hash) this.#byHash.delete(token.hash);
    Object.assign(token, patch);
    this.#index(token);
    await this.#persist();
  }

  touchToken(id: string, at: string) {
    const token = this.#byId.get(id);
    if (!token) return;
    token.last_used_at = at;
    this.#touchTimer ??= setTimeout(() => {
      this.#touchTimer = null;
      this.#persist().catch(() => {}); // retried with the next write
    }, TOUCH_FLUSH_MS).unref();
  }

  /** Stops the pending touch write (the caller's last write takes it). */
  stop() {
    if (this.#touchTimer) clearTimeout(this.#touchTimer);
    this.#touchTimer = null;
  }

  #index(token: StoredToken) {
    this.#byHash.set(token.hash, token);
    this.#byId.set(token.id, token);
  }
}
