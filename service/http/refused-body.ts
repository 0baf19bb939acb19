// A body refused early (413) is still on its way when the answer goes out. If the socket were
// closed with some of it unread, the kernel would reset the connection, and a reset throws away
// the answer the client has not read yet (it sees EPIPE or ECONNRESET, never the 413). So the
// answer is sent, then our side is half-closed (FIN after the last byte), and the rest of the
// body is read and dropped (never kept) until the client closes its side: a clean close. A
// client that sends more than DRAIN_BYTES or takes longer than DRAIN_MS is not worth waiting for.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bytes read and dropped after the answer before the connection is cut. */
export const DRAIN_BYTES = 64 * 1024 * 1024;
/** How long after the answer the client may take to finish sending and close. */
export const DRAIN_MS = 10_000;

/**
 * Call before the refusal is sent, and send it without `Connection: close` (Node would destroy
 * the socket as soon as the answer is written, with the body unread). The half-close that follows
 * the answer tells the client the connection is over all the same.
 */
export function drainRefusedBody(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket;
  // A request that said `Connection: close` makes Node close the socket for good as soon as the
  // answer is written (destroySoon), with the body still coming: the reset this file is here to
  // prevent. The half-close below ends the connection instead.
  response.shouldKeepAlive = true;
  let dropped = 0;
  const cut = () => socket.destroy();
  request.unpipe(); // a stream that read the body for the parser (diff-size-bound.ts) would hold it back
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_BYTES) cut();
  });
  request.resume();
  response.once('finish', () => {
    socket.end(); // FIN after the answer; the socket closes itself once the client has closed too
    const timer = setTimeout(cut, DRAIN_MS).unref();
    socket.once('close', () => clearTimeout(timer));
  });
}
