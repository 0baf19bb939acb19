import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStreamParser, parseServerSentEvents, type ServerSentEvent } from '../../../service/client/sse.ts';
import { parseRetryAfter } from '../../../service/client/retry-after.ts';

const encoder = new TextEncoder();

function streamOf(chunks: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

async function collect(chunks: Array<string | Uint8Array>): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of parseServerSentEvents(streamOf(chunks))) events.push(event);
  return events;
}

describe('parseServerSentEvents', () => {
  it('joins multi-line data, skips comments, keeps the event name and id', async () => {
    const text = ': hello\n\nevent: review\nid: 7\ndata: {"a":\ndata:  1}\n\n: ping\n\ndata: plain\n\n';
    expect(await collect([text])).toEqual([
      { event: 'review', data: '{"a":\n 1}', id: '7' },
      { event: 'message', data: 'plain', id: '7' },
    ]);
  });

  it('treats CRLF, CR and LF alike, also when CRLF is split between chunks', async () => {
    expect(await collect(['event: review\r', '\ndata: x\r\n\r', '\ndata: y\r\rdata: z\n\n'])).toEqual([
      { event: 'review', data: 'x', id: '' },
      { event: 'message', data: 'y', id: '' },
      { event: 'message', data: 'z', id: '' },
    ]);
  });

  it('decodes UTF-8 split inside a character, drops a leading BOM, and discards an unterminated event', async () => {
    const bytes = encoder.encode('\uFEFFdata: héllo ✓\n\ndata: unfinished');
    const cut = 9; // inside "é"
    expect(await collect([bytes.slice(0, cut), bytes.slice(cut)])).toEqual([
      { event: 'message', data: 'héllo ✓', id: '' },
    ]);
  });

  it('follows the field rules: no colon, no space after the colon, retry, empty data, unknown fields', async () => {
    const text = 'data\n\ndata:x\nretry: 1500\nfoo: bar\n\nevent: only-name\n\n';
    expect(await collect([text])).toEqual([
      { event: 'message', data: '', id: '' },
      { event: 'message', data: 'x', id: '', retry: 1500 },
    ]);
  });

  it('gives the same events however the bytes are cut into chunks', () => {
    const line = fc.constantFrom('\n', '\r\n', '\r');
    const value = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '{', '"', 'é', '✓') });
    const frame = fc.tuple(fc.constantFrom('data', 'event', 'id', ':comment', 'data'), value, line);
    return fc.assert(
      fc.asyncProperty(
        fc.array(frame, { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (frames, cuts) => {
          const text = `${frames.map(([field, v, eol]) => `${field}: ${v}${eol}`).join('')}\n\n`;
          const bytes = encoder.encode(text);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks: Uint8Array[] = [];
          let from = 0;
          for (const point of points) {
            chunks.push(bytes.slice(from, point));
            from = point;
          }
          chunks.push(bytes.slice(from));
          const whole: ServerSentEvent[] = [...new EventStreamParser().push(text)];
          expect(await collect(chunks)).toEqual(whole);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('cancels the stream when the consumer stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: 1\n\ndata: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of parseServerSentEvents(stream)) {
      expect(event.data).toBe('1');
      break;
    }
    expect(cancelled).toBe(true);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T18:42:00.000Z');
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 18:43:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Sat, 21 Nov 2026 18:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent and malformed values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
  });
});
