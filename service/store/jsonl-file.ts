// Append-only JSON-lines files, as the archive and the idempotency log keep them: read line by
// line without holding a large file in memory, appended in whole lines, and a torn last line (a
// crash or a failed write in the middle of an append) found so the caller can decide about it.
import { open } from 'node:fs/promises';

const NEWLINE = 0x0a;
export const NEWLINE_BYTES = Buffer.from('\n');
/** Files are read this many bytes at a time: a large one is never in memory whole. */
const CHUNK = 1024 * 1024;

export interface JsonlScan {
  /** Bytes up to the end of the last whole line. */
  whole: number;
  /** What follows the last newline, when the file does not end with one. */
  tornTail?: Buffer;
}

/**
 * Hands every non-empty whole line to `each` (its text, byte offset and length without the
 * newline, and its 1-based line number), in order.
 */
export async function scanLines(
  file: string,
  each: (text: string, offset: number, length: number, line: number) => void,
): Promise<JsonlScan> {
  const handle = await open(file, 'r');
  try {
    let buffer = Buffer.allocUnsafe(CHUNK);
    /** Bytes of the file before buffer[0]; buffer[0, filled) holds what is not handed out yet. */
    let base = 0;
    let filled = 0;
    let line = 1;
    for (;;) {
      if (filled === buffer.length) {
        // One line longer than the buffer: make room.
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, filled);
        buffer = bigger;
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, base + filled);
      if (bytesRead === 0) break;
      const end = filled + bytesRead;
      let start = 0;
      for (let stop = buffer.indexOf(NEWLINE, filled); stop >= 0 && stop < end; stop = buffer.indexOf(NEWLINE, start)) {
        if (stop > start) each(buffer.toString('utf8', start, stop), base + start, stop - start, line);
        line++;
        start = stop + 1;
      }
      buffer.copy(buffer, 0, start, end);
      base += start;
      filled = end - start;
    }
    return filled > 0 ? { whole: base, tornTail: Buffer.from(buffer.subarray(0, filled)) } : { whole: base };
  } finally {
    await handle.close();
  }
}

/** Cuts the file to `size` bytes (drops a torn tail). */
export async function truncateTo(file: string, size: number): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.truncate(size);
  } finally {
    await handle.close();
  }
}

/**
 * Appends `data` (whole lines) to a file whose whole lines end at `known` bytes, creating it (mode
 * 0600) if need be. A previous append that failed half-way left a torn line: it is cut off first.
 * Resolves with the file's new size.
 */
export async function appendLines(file: string, known: number, data: Buffer): Promise<number> {
  const handle = await open(file, 'a', 0o600);
  try {
    if ((await handle.stat()).size !== known) await handle.truncate(known);
    await handle.writeFile(data);
    return known + data.length;
  } finally {
    await handle.close();
  }
}
