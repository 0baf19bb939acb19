// Types for @fastify/rate-limit's in-memory store, which the package ships without declarations.
declare module '@fastify/rate-limit/store/LocalStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  export default class LocalStore implements FastifyRateLimitStore {
    constructor(continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number);
    incr: FastifyRateLimitStore['incr'];
    child(routeOptions: unknown): LocalStore;
  }
}
