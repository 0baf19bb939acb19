// @fastify/rate-limit gives each route a store of its own (`child()`), so routes never share a
// budget even with a common groupId. This store hands out itself: routes of one group (the key
// is token id + groupId) count against one budget, e.g. list, events and SARIF together.
// The package has no "exports" map, so its in-memory store is importable by path (a static
// import, so that bundlers include it).
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';

export class SharedRateLimitStore extends LocalStore {
  constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean; cache?: number } = {}) {
    super(options.continueExceeding, options.exponentialBackoff, options.cache);
  }
  override child(): LocalStore {
    return this;
  }
}
