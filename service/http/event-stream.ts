// What every Server-Sent Events stream of the service shares: the headers, a heartbeat, an end
// at the stream's maximum lifetime or at shutdown, and its place among the open streams given
// back however it ends (the client closed it, too).
import type { FastifyReply } from 'fastify';
import type { ReviewEvents } from '../jobs/review-events.ts';
import type { EventStreamSlot } from './event-stream-slots.ts';

const HEARTBEAT_MS = 15_000;

export interface EventStreamOptions {
  events: ReviewEvents;
  /** The stream's place among the open ones, given back when it ends. */
  slot: EventStreamSlot;
  lifetimeMs: number;
  /** Runs once when the stream ends, whyever it ends (to unsubscribe). */
  onEnd: () => void;
  /** Logged with a step that failed (the review's id). */
  logFields?: Record<string, unknown>;
}

export interface OpenEventStream {
  /** Whether the stream has ended: nothing more is written. */
  readonly ended: boolean;
  /** Writes one event: `event: <name>` with the value as JSON in `data`. */
  send(name: string, value: unknown): void;
  /**
   * Runs `step` after the steps queued before it, so that events made asynchronously (a completed
   * job reads its comments) go out in order; a step that fails is logged and ends the stream.
   */
  inOrder(step: () => Promise<void>): void;
  end(): void;
}

export function openEventStream(
  reply: FastifyReply,
  { events, slot, lifetimeMs, onEnd, logFields }: EventStreamOptions,
) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let ended = false;
  const stopOnShutdown = events.onShutdown(() => end());
  const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const expiry = setTimeout(() => end(), lifetimeMs);
  function end() {
    if (ended) return;
    ended = true;
    onEnd();
    stopOnShutdown();
    clearInterval(heartbeat);
    clearTimeout(expiry);
    slot.release();
    raw.end();
  }
  raw.on('close', end);
  let chain = Promise.resolve();
  const stream: OpenEventStream = {
    get ended() {
      return ended;
    },
    send: (name, value) => {
      if (!ended) raw.write(`event: ${name}\ndata: ${JSON.stringify(value)}\n\n`);
    },
    inOrder: (step) => {
      chain = chain.then(step).catch((error: unknown) => {
        reply.log.error({ err: error, ...logFields }, 'event stream failed');
        end();
      });
    },
    end,
  };
  return stream;
}
