// A Server-Sent Events parser after the WHATWG HTML "event stream interpretation" rules:
// LF, CRLF and lone CR end lines (also when split across chunks), `:` starts a comment,
// several `data:` lines join with "\n", one space after the colon is dropped, an event without
// data is not dispatched, and an unterminated event at the end of the stream is discarded.

/** One dispatched event. */
export interface ServerSentEvent {
  /** `event:` field; `message` when absent. */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
  /** Last `id:` seen (persists across events, as the spec says). */
  id: string;
  /** `retry:` in milliseconds, when this event carried one. */
  retry?: number;
}

/**
 * Reads a byte stream (a fetch Response body) as Server-Sent Events. When `signal` fires, the
 * read under way is cancelled and the signal's reason thrown: the stream's own source may not
 * follow the signal (undici holds a fetch's abort listener weakly, so after a garbage collection
 * a silent stream would wait for ever).
 */
export async function* parseServerSentEvents(
  stream: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = stream.getReader();
  const decoder = new TextDecoder('utf-8');
  const parser = new EventStreamParser();
  const stopReading = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', stopReading, { once: true });
  let done = false;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const chunk = await reader.read();
      // A cancelled read ends like the stream: the signal tells which it was.
      signal?.throwIfAborted();
      const text = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      yield* parser.push(text);
      if (chunk.done) {
        done = true;
        return;
      }
    }
  } finally {
    signal?.removeEventListener('abort', stopReading);
    // The consumer stopped early (break, return, error): release the connection.
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** Incremental line splitter + field interpreter; push text, get the events it completes. */
export class EventStreamParser {
  #buffer = '';
  #sawCarriageReturn = false;
  #atStart = true;
  #event = '';
  #data: string[] = [];
  #id = '';
  #retry: number | undefined;

  *push(text: string): Generator<ServerSentEvent, void, undefined> {
    let input = text;
    if (this.#atStart && input.length > 0) {
      if (input.charCodeAt(0) === 0xfeff) input = input.slice(1);
      this.#atStart = false;
    }
    // A CR ended the previous chunk; a LF opening this one belongs to the same line break.
    if (this.#sawCarriageReturn && input.startsWith('\n')) input = input.slice(1);
    this.#sawCarriageReturn = false;
    this.#buffer += input;

    let start = 0;
    for (let i = 0; i < this.#buffer.length; i++) {
      const ch = this.#buffer.charCodeAt(i);
      if (ch !== 0x0a && ch !== 0x0d) continue;
      const line = this.#buffer.slice(start, i);
      if (ch === 0x0d) {
        if (i + 1 === this.#buffer.length) this.#sawCarriageReturn = true;
        else if (this.#buffer.charCodeAt(i + 1) === 0x0a) i++;
      }
      start = i + 1;
      const event = this.#line(line);
      if (event) yield event;
    }
    this.#buffer = this.#buffer.slice(start);
  }

  #line(line: string): ServerSentEvent | undefined {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.#id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#retry = Number(value);
        break;
      default:
        break; // Unknown fields are ignored.
    }
    return undefined;
  }

  #dispatch(): ServerSentEvent | undefined {
    const data = this.#data;
    const event = this.#event;
    const retry = this.#retry;
    this.#data = [];
    this.#event = '';
    this.#retry = undefined;
    if (data.length === 0) return undefined;
    const dispatched: ServerSentEvent = { event: event || 'message', data: data.join('\n'), id: this.#id };
    if (retry !== undefined) dispatched.retry = retry;
    return dispatched;
  }
}
