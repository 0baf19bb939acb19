// Types for @fastify/rate-limit's in-memory store, which the package ships without declarations.
declare module '@fastify/rate-limit/store/LocalStore.js' {
  export default class LocalStore {
    constructor(continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number);
    child(routeOptions: unknown): LocalStore;
  }
}
