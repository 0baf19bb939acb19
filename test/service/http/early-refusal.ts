// The conformance check "5 MB body → 413, quickly", in each shape a client sends it, as a
// loop any suite can run against any service (one started in the test, or a fresh `serve`).
//
// Two ways of sending: as fast as the socket takes it (the way the reset showed: the answer must
// arrive every time, never an EPIPE or ECONNRESET), and paced, 64 KiB a millisecond, to see that
// the answer came before the whole body was sent. Sent as fast as possible, the kernel's socket
// buffers (several MB on loopback) take the whole body before the server has read a fifth of it,
// so "bytes written when the answer came" says nothing about the server there.
import { sendWholeThenRead, streamRequest } from './raw-http.ts';

export const FIVE_MIB = 5 * 1024 * 1024;

/**
 * How many times in a row each refusal is tried. A lost answer showed about one run in ten when
 * it was a bug, so a few runs per shape in every test run keep it in sight; the long series
 * (50 and more, issue 16) is run on purpose: DIFF_REVIEW_REFUSAL_RUNS=50 bash test/support/repeat-suite.sh …
 */
export const REFUSAL_RUNS = Number(process.env.DIFF_REVIEW_REFUSAL_RUNS ?? 5);

/** One try: the status answered, and the body bytes sent by then (undefined: not observable). */
interface Refusal {
  status: number;
  sentWhenAnswered?: number;
  /** The answer's body, for its error id. */
  body: string;
  /** A socket error (EPIPE, ECONNRESET) around the answer. */
  error?: string;
}

export interface RefusalCase {
  name: string;
  /** True when the answer must have come before the whole body was sent. */
  early: boolean;
  send(): Promise<Refusal>;
}

/** The shapes of a 5 MiB create, by name. */
export const FIVE_MIB_SHAPES = [
  'Content-Length and a filler',
  'chunked',
  'a JSON body {"diff":"aaa…"}',
  'sent whole, then read',
] as const;

/**
 * The 5 MiB create of that shape, which must be refused early (413 diff_too_large) by the service
 * at `url`; `paced`: sent 64 KiB a millisecond, and answered before it was all sent.
 */
export function fiveMibCreate(
  url: string,
  reviewToken: string,
  shape: (typeof FIVE_MIB_SHAPES)[number],
  { paced = false } = {},
): RefusalCase {
  const headers = { authorization: `Bearer ${reviewToken}`, 'content-type': 'application/json' };
  const pauseMs = paced ? 1 : 0;
  const stream = (extra: Record<string, string | number>, prefix?: string) => () =>
    streamRequest({
      url,
      path: '/v1/reviews',
      headers: { ...headers, ...extra },
      bodyBytes: FIVE_MIB,
      pauseMs,
      prefix,
    });
  const name = paced ? `${shape}, paced` : shape;
  switch (shape) {
    case 'Content-Length and a filler':
      return { name, early: paced, send: stream({ 'content-length': FIVE_MIB }) };
    case 'chunked':
      return { name, early: paced, send: stream({ 'transfer-encoding': 'chunked' }) };
    case 'a JSON body {"diff":"aaa…"}':
      return { name, early: paced, send: stream({ 'content-length': FIVE_MIB }, '{"diff":"') };
    case 'sent whole, then read': {
      const head = `POST /v1/reviews HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${reviewToken}\r\nContent-Type: application/json\r\nContent-Length: ${FIVE_MIB}\r\n\r\n`;
      const send = async () => {
        const answer = await sendWholeThenRead(url, head, FIVE_MIB);
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer.statusLine)?.[1] ?? 0);
        const body = answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4);
        return { status, body, error: answer.error };
      };
      return { name, early: false, send };
    }
  }
}

/**
 * Sends a case `runs` times in a row; answers what went wrong in each run that was not a 413
 * diff_too_large (answered before the whole body was sent, for an `early` case), and the most body
 * bytes any run had sent when its answer came.
 */
export async function refuseRuns(
  refusal: RefusalCase,
  runs: number,
): Promise<{ failures: string[]; mostSent: number }> {
  const failures: string[] = [];
  let mostSent = 0;
  for (let run = 0; run < runs; run++) {
    try {
      const answer = await refusal.send();
      const sent = answer.sentWhenAnswered;
      if (sent !== undefined) mostSent = Math.max(mostSent, sent);
      if (answer.error !== undefined) failures.push(`run ${run}: ${answer.status} and ${answer.error}`);
      else if (answer.status !== 413) failures.push(`run ${run}: ${answer.status}`);
      else if ((JSON.parse(answer.body) as { error?: string }).error !== 'diff_too_large')
        failures.push(`run ${run}: ${answer.body}`);
      else if (refusal.early && (sent === undefined || sent >= FIVE_MIB))
        failures.push(`run ${run}: answered only after the whole body`);
    } catch (error) {
      failures.push(`run ${run}: ${(error as Error).message}`);
    }
  }
  return { failures, mostSent };
}
