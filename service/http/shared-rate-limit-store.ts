// @fastify/rate-limit gives each route a store of its own (`child()`), so routes never share a
// budget even with a common groupId. This store hands out itself: routes of one group (the key
// is token id + groupId) count against one budget, e.g. list, events and SARIF together.
import { createRequire } from 'node:module';

interface LocalStoreLike {
  child(options: unknown): LocalStoreLike;
}
type LocalStoreCtor = new (continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number) => LocalStoreLike;

// The package has no "exports" map; its in-memory store is a plain CommonJS file.
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore') as LocalStoreCtor;

export class SharedRateLimitStore extends LocalStore {
  constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean; cache?: number } = {}) {
    super(options.continueExceeding, options.exponentialBackoff, options.cache);
  }
  override child(): LocalStoreLike {
    return this;
  }
}
