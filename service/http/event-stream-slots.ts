// An open event stream holds a socket, a file descriptor, for as long as its job runs, and a job
// can stay queued a long while. About 1,000 of them used up a 1,024-descriptor process, and then
// every request failed with a reset. So streams are counted, per token and in total, and refused
// beyond (429, like the other limits per token); the client polls instead, which costs no socket.
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from './error-replies.ts';

export interface EventStreamLimits {
  /** Streams one token may hold open at once. */
  perToken: number;
  /** Streams the service holds open at once, all tokens together. */
  total: number;
  /** A stream ends after this long, cleanly (the client reconnects or polls): a forgotten one cannot hold its place forever. */
  lifetimeMs: number;
}

/** A place taken by one open stream; give it back when the stream ends. */
export interface EventStreamSlot {
  release(): void;
}

interface Held {
  tokenId: string;
  openedAt: number;
}

/** How often, at most, a refusal is logged per cap: a client retrying in a loop must not flood the log. */
const WARN_EVERY_MS = 60_000;

export class EventStreamSlots {
  readonly #limits: EventStreamLimits;
  readonly #log: FastifyBaseLogger;
  readonly #now: () => number;
  /** Open streams, oldest first (a Set keeps insertion order), in all and per token. */
  readonly #all = new Set<Held>();
  readonly #byToken = new Map<string, Set<Held>>();
  readonly #warnings = { per_token: { at: -Infinity, refused: 0 }, total: { at: -Infinity, refused: 0 } };

  constructor(limits: EventStreamLimits, log: FastifyBaseLogger, now: () => number = Date.now) {
    this.#limits = limits;
    this.#log = log;
    this.#now = now;
  }

  get limits(): EventStreamLimits {
    return this.#limits;
  }

  /** A place for a new stream of this token; throws the 429 when a cap is reached. */
  take(tokenId: string): EventStreamSlot {
    const mine = this.#byToken.get(tokenId);
    if (mine !== undefined && mine.size >= this.#limits.perToken) {
      throw this.#refusal(
        'per_token',
        mine,
        `This token has ${this.#limits.perToken} event streams open, the most one token may hold at once`,
      );
    }
    if (this.#all.size >= this.#limits.total) {
      throw this.#refusal(
        'total',
        this.#all,
        `The service has ${this.#limits.total} event streams open, the most it holds at once`,
      );
    }
    const held: Held = { tokenId, openedAt: this.#now() };
    this.#all.add(held);
    const set = mine ?? new Set<Held>();
    set.add(held);
    this.#byToken.set(tokenId, set);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#all.delete(held);
        set.delete(held);
        if (set.size === 0 && this.#byToken.get(tokenId) === set) this.#byToken.delete(tokenId);
      },
    };
  }

  #refusal(cap: 'per_token' | 'total', open: Set<Held>, what: string): HttpError {
    // The oldest of these streams ends by its lifetime at the latest: a place is free by then.
    const oldest = open.values().next().value as Held;
    const retryAfter = Math.max(1, Math.ceil((oldest.openedAt + this.#limits.lifetimeMs - this.#now()) / 1000));
    this.#warn(cap);
    return new HttpError(
      429,
      'rate_limited',
      `${what}. Close one, or poll GET /v1/reviews/{review_id} instead; retry in ${retryAfter} s.`,
      { 'retry-after': String(retryAfter) },
    );
  }

  #warn(cap: 'per_token' | 'total') {
    const warning = this.#warnings[cap];
    warning.refused++;
    const now = this.#now();
    if (now - warning.at < WARN_EVERY_MS) return;
    const limit = cap === 'total' ? this.#limits.total : this.#limits.perToken;
    this.#log.warn(
      { cap, limit, open: this.#all.size, refused: warning.refused },
      'event stream cap reached: new streams are refused (429)',
    );
    warning.at = now;
    warning.refused = 0;
  }
}
