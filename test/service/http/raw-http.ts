// Raw HTTP for the edges fetch cannot reach: streamed bodies, Expect: 100-continue, chunked
// bodies, oversize headers, slow clients. Every answer is read whole, with what happened around it.
import http from 'node:http';
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Request-body bytes written when the response's head arrived. */
  sentWhenAnswered: number;
  /** True when the server sent 100 Continue. */
  continued: boolean;
  /** An error of the socket after the answer (e.g. ECONNRESET), if any. */
  laterError?: string;
}

export interface StreamOptions {
  url: string;
  path: string;
  method?: string;
  headers: Record<string, string | number>;
  /** Total bytes of body to stream (never held in memory at once). */
  bodyBytes: number;
  /** What each chunk consists of. */
  fill?: string;
  /** Sent first, as part of `bodyBytes` (e.g. `{"diff":"` before a filler of text). */
  prefix?: string;
  chunkBytes?: number;
  /** Pause between chunks, so the answer can arrive while the body is still on its way. */
  pauseMs?: number;
  /** A small body to send whole instead of `bodyBytes` of `fill`. */
  body?: string;
  /** Send no body until 100 Continue (with `Expect: 100-continue`). */
  waitForContinue?: boolean;
  /** Give up after this long. */
  timeoutMs?: number;
}

/**
 * Streams a body of `bodyBytes` and resolves with the answer once it has been read whole. The
 * stream stops as soon as the answer's head arrives (the rest would only be dropped by the server).
 */
export function streamRequest(options: StreamOptions): Promise<RawAnswer> {
  const {
    url,
    path,
    method = 'POST',
    headers,
    bodyBytes,
    fill = 'a',
    chunkBytes = 64 * 1024,
    pauseMs = 2,
    timeoutMs = 20_000,
  } = options;
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    let continued = false;
    const chunk = Buffer.alloc(chunkBytes, fill);
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer after ${timeoutMs} ms (${sent} bytes sent)`));
    }, timeoutMs);
    const request = http.request({ host: target.hostname, port: target.port, path, method, headers, agent: false });
    let result: RawAnswer | undefined;
    let laterError: string | undefined;
    request.on('error', (error: NodeJS.ErrnoException) => {
      // once the answer's head is here, an error (Node's client writing on after the server's FIN:
      // EPIPE) no longer stops it from being read whole
      if (result || answered) {
        laterError = error.code ?? error.message;
        if (result) result.laterError = laterError;
        return;
      }
      clearTimeout(timer);
      reject(
        Object.assign(
          new Error(`request failed before an answer, after ${sent} bytes: ${error.code ?? error.message}`),
          { code: error.code },
        ),
      );
    });
    request.on('continue', () => {
      continued = true;
      void pump();
    });
    request.on('response', (response) => {
      answered = true;
      const sentWhenAnswered = sent;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      response.on('end', () => {
        clearTimeout(timer);
        result = {
          status: response.statusCode!,
          headers: response.headers,
          body: Buffer.concat(parts).toString('utf8'),
          sentWhenAnswered,
          continued,
          laterError,
        };
        request.destroy();
        resolve(result);
      });
    });
    async function pump() {
      if (options.body !== undefined) {
        sent += Buffer.byteLength(options.body);
        request.end(options.body);
        return;
      }
      if (options.prefix !== undefined) {
        sent += Buffer.byteLength(options.prefix);
        request.write(options.prefix);
      }
      while (sent < bodyBytes && !answered && !request.destroyed) {
        const size = Math.min(chunkBytes, bodyBytes - sent);
        const ok = request.write(size === chunkBytes ? chunk : chunk.subarray(0, size));
        sent += size;
        if (!ok) await new Promise((r) => request.once('drain', r));
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
      if (!answered && !request.destroyed) request.end();
    }
    if (options.waitForContinue) request.flushHeaders();
    else void pump();
  });
}

export interface SocketAnswer {
  /** The whole text the server sent before closing (or before the timeout). */
  text: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** How the socket ended: 'end' (server closed), 'error:<code>', 'timeout'. */
  ending: string;
}

/**
 * Writes `parts` to a raw TCP socket, `pauseMs` apart, and reads everything the server sends until
 * it closes the connection (or `timeoutMs`).
 */
export function rawSocket(
  url: string,
  parts: (string | Buffer)[],
  { pauseMs = 0, timeoutMs = 10_000 } = {},
): Promise<SocketAnswer> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: target.hostname, port: Number(target.port) });
    const received: Buffer[] = [];
    let done = false;
    const finish = (ending: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(received).toString('latin1'), ending));
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('end', () => finish('end'));
    socket.on('close', () => finish('end'));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(`error:${error.code ?? error.message}`));
    socket.on('connect', async () => {
      for (const part of parts) {
        if (done || socket.destroyed) return;
        socket.write(part);
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
    });
  });
}

function parse(text: string, ending: string): SocketAnswer {
  const headEnd = text.indexOf('\r\n\r\n');
  const head = headEnd >= 0 ? text.slice(0, headEnd) : text;
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const body = headEnd >= 0 ? Buffer.from(text.slice(headEnd + 4), 'latin1').toString('utf8') : '';
  return { text, status, headers, body, ending };
}

export interface WholeBodyAnswer {
  /** The status line the server sent ('' when nothing could be read). */
  statusLine: string;
  /** The whole text the server sent. */
  text: string;
  /** Body bytes written before the server stopped reading. */
  sent: number;
  /** The first socket error (EPIPE, ECONNRESET), if any. */
  error?: string;
}

/**
 * A client that writes its whole request before it reads a byte of the answer (as simple clients
 * do): the answer waits in the kernel's buffer meanwhile, and a reset would throw it away.
 */
export function sendWholeThenRead(
  url: string,
  head: string,
  bodyBytes: number,
  { timeoutMs = 5000 } = {},
): Promise<WholeBodyAnswer> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: target.hostname, port: Number(target.port) });
    socket.pause();
    const received: Buffer[] = [];
    let error: string | undefined;
    let closed = false;
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    const closing = new Promise<void>((r) => socket.on('close', () => r(void (closed = true))));
    socket.on('connect', async () => {
      socket.write(head);
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      while (sent < bodyBytes && !closed) {
        const part = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent));
        sent += part.length;
        if (!socket.write(part)) await Promise.race([new Promise((r) => socket.once('drain', r)), closing]);
      }
      socket.resume();
      const timer = setTimeout(() => socket.destroy(), timeoutMs);
      await closing;
      clearTimeout(timer);
      const text = Buffer.concat(received).toString('latin1');
      resolve({ statusLine: text.split('\r\n')[0] ?? '', text, sent, error });
    });
  });
}
