// Cheap looks at a JSON body before (or instead of) parsing it: how deep it nests, which field a
// position falls in, where its UTF-8 first goes wrong. They step over strings with indexOf, so a
// 1 MB diff costs one native search per quote in it, not a JavaScript step per character.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the quote that closes the string opened at `start`, or -1 when it is not closed. */
function stringEnd(text: string, start: number): number {
  let end = start;
  for (;;) {
    end = text.indexOf('"', end + 1);
    if (end === -1) return -1;
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return end; // an odd number escapes the quote
  }
}

/** True when arrays and objects nest deeper than `max` levels (brackets in strings are text). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return false; // not JSON: JSON.parse says so
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * The name of the field whose string value is still open at the end of `prefix` (the valid start
 * of a body), or undefined when the prefix does not end inside a value. In an array, the field
 * that holds the array.
 */
export function openFieldAt(prefix: string): string | undefined {
  // Per open container: '{' or '[', and the last key seen in an object.
  const containers: { kind: number; key?: string; expectKey: boolean }[] = [];
  let lastString = '';
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    const top = containers.at(-1);
    if (c === QUOTE) {
      const end = stringEnd(prefix, i);
      if (end === -1) {
        if (top === undefined || (top.kind === 0x7b && top.expectKey)) return undefined; // a key, not a value
        return containers.findLast((container) => container.key !== undefined)?.key;
      }
      lastString = prefix.slice(i + 1, end);
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      containers.push({ kind: c, expectKey: c === 0x7b });
    } else if (c === 0x7d || c === 0x5d) {
      containers.pop();
    } else if (c === 0x3a && top?.kind === 0x7b) {
      top.key = parseKey(lastString);
      top.expectKey = false;
    } else if (c === 0x2c && top?.kind === 0x7b) {
      top.expectKey = true;
    }
  }
  return undefined;
}

function parseKey(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/**
 * The offset of the first byte that is not valid UTF-8 (an unexpected continuation byte, an
 * overlong form, a surrogate, a code point past U+10FFFF, a sequence cut short), or -1.
 * Only for a body `buffer.isUtf8` has already refused: this is the slow, exact look.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // length of the sequence, and the range its second byte must fall in (rules out overlongs, surrogates, > U+10FFFF)
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    if (i + length > bytes.length) return i;
    const second = bytes[i + 1]!;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}
