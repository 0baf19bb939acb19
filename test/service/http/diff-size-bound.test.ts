// The lower bound on a create body's decoded text that lets a 5 MB body be refused as it streams
// (service/http/diff-size-bound.ts): never above what a valid body decodes to, whatever the
// escapes and however the body is cut into pieces; the HTTP side is hardening-early-413.test.ts.
import { PassThrough, Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../service/api/limits.ts';
import {
  boundCreateBody,
  CREATE_TEXT_BOUND,
  CreateBodyBound,
  DecodedSizeBound,
} from '../../../service/http/diff-size-bound.ts';

const boundOf = (...pieces: (string | Buffer)[]) => {
  const bound = new DecodedSizeBound();
  for (const piece of pieces) bound.feed(Buffer.from(piece));
  return bound.bytes;
};

/** What a body decodes to: the UTF-8 bytes of its strings, plus its structure outside them. */
function decodedSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (Array.isArray(value)) return 2 + value.length + value.reduce((sum: number, v) => sum + decodedSize(v), 0);
  if (value !== null && typeof value === 'object')
    return (
      2 +
      2 * Object.keys(value).length +
      Object.entries(value).reduce((sum, [k, v]) => sum + decodedSize(k) + decodedSize(v), 0)
    );
  return JSON.stringify(value).length;
}

describe('the lower bound on a create body’s decoded size', () => {
  it('is at most what the body decodes to, for any text, spacing and cut into pieces', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.constantFrom(undefined, 0, 2, '\t', ' \r\n'),
        fc.array(fc.nat(), { maxLength: 6 }),
        (diff, repository, space, cuts) => {
          const body = Buffer.from(JSON.stringify({ diff, repository }, null, space as never));
          const points = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
          const pieces = [0, ...points, body.length]
            .slice(1)
            .map((end, i, ends) => body.subarray(i === 0 ? 0 : ends[i - 1], end));
          const bound = boundOf(...pieces);
          expect(bound).toBe(boundOf(body)); // the cuts change nothing
          expect(bound).toBeLessThanOrEqual(decodedSize({ diff, repository }));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('counts an escape once, wherever the pieces cut it', () => {
    const body = '{"diff":"\\u0001\\n\\ud83d\\ude00\\"x"}';
    // the diff: one for each escape (a surrogate pair is two, for 4 bytes) and the x; and `diff`
    expect(boundOf(body)).toBe(6 + 4);
    for (let cut = 1; cut < body.length; cut++) expect(boundOf(body.slice(0, cut), body.slice(cut))).toBe(10);
  });

  it('a valid diff at the limit in its most escaped form (6 MB of JSON) stays under the refusal', () => {
    const body = JSON.stringify({ diff: '\u0001'.repeat(LIMITS.diffBytes), repository: 'github.com/acme/widgets' });
    expect(body.length).toBeGreaterThan(6 * LIMITS.diffBytes);
    expect(boundOf(body)).toBeLessThan(LIMITS.diffBytes + 100);
    expect(boundOf(body)).toBeLessThanOrEqual(CREATE_TEXT_BOUND);
  });

  it('JSON’s whitespace and punctuation count nothing; text that is no JSON counts whole', () => {
    expect(boundOf(`{"diff":"x",${' \n\t\r'.repeat(1000)}"repository":"r"}`)).toBe(
      boundOf('{"diff":"x","repository":"r"}'),
    );
    expect(boundOf('a'.repeat(5000))).toBe(5000);
    expect(boundOf('{"diff":"', 'a'.repeat(5000))).toBe(4 + 5000);
    expect(boundOf('[[[[', '{}]]],,::', 'true,1')).toBe(5);
  });
});

describe('the create body as it streams', () => {
  /** Streams the pieces through a CreateBodyBound of `limit`: the bytes passed on, or the error. */
  async function through(limit: number, pieces: string[]): Promise<string> {
    const stream = Readable.from(pieces.map((p) => Buffer.from(p))).pipe(new CreateBodyBound(limit));
    let passed = '';
    stream.on('data', (chunk: Buffer) => (passed += chunk));
    return new Promise((resolve) => {
      stream.on('end', () => resolve(passed));
      stream.on('error', (error) => resolve(`${error.name} after ${passed.length}`));
    });
  }

  it('passes the body on unchanged while its text is within the limit, escapes counted once', async () => {
    const escaped = `{"diff":"${'\\u0001'.repeat(10)}"}`; // 70 bytes, a bound of 14
    expect(await through(20, [escaped.slice(0, 30), escaped.slice(30)])).toBe(escaped);
  });

  it('fails with DiffTooLargeError at the first piece that takes the text past the limit', async () => {
    // 17 bytes (a bound of 12), then 27 (22: looked at now, past 25 bytes), then 37 (32)
    expect(await through(25, ['{"diff":"aaaaaaaa', 'aaaaaaaaaa', 'aaaaaaaaaa', 'aaaaa"}'])).toBe(
      'DiffTooLargeError after 27',
    );
  });
});

describe('a create body the client gives up on', () => {
  it('fails the bound (and so the parse) instead of leaving it waiting for an end', async () => {
    const body = new PassThrough();
    const bound = boundCreateBody(body);
    const failures: Error[] = [];
    bound.on('error', (error) => failures.push(error));
    bound.resume(); // the parser starts reading
    body.write('{"diff":"aaaa');
    body.destroy(new Error('aborted'));
    await nextTurn();
    expect(failures.map((e) => e.message)).toEqual(['aborted']);
    expect(bound.destroyed).toBe(true);
  });

  it('a body closed before its end fails it too; one that ended does not', async () => {
    const cut = new PassThrough();
    const cutBound = boundCreateBody(cut);
    const errors: Error[] = [];
    cutBound.on('error', (error) => errors.push(error));
    cutBound.resume();
    cut.write('{"diff":"aaaa');
    cut.destroy();
    await nextTurn();
    expect(errors.map((e) => e.message)).toEqual(['The request body ended before it was complete.']);

    const whole = new PassThrough();
    const wholeBound = boundCreateBody(whole);
    wholeBound.on('error', (error) => errors.push(error));
    wholeBound.resume();
    whole.end('{"diff":"a"}');
    await new Promise((resolve) => wholeBound.once('end', resolve));
    whole.destroy();
    await nextTurn();
    expect(errors).toHaveLength(1);
  });
});
