// Check digits and structure that providers build into their credentials, checked offline: a
// value that fails them was never issued (made up for an example, or altered). Nothing here ever
// asks a provider whether a credential is live.
//
// - GitHub's classic tokens (ghp_, gho_, ghu_, ghs_, ghr_) and npm's (npm_): 30 random base62
//   characters, then the CRC-32 (ISO-HDLC, zlib's) of those 30, base62 (0-9A-Za-z) big-endian,
//   left-padded with 0 to 6 characters (github.blog 2021-04-05, 2021-09-23).
// - PyPI's API tokens: "pypi-" and a macaroon (version 2, binary, base64url): a location
//   (pypi.org), an identifier, caveats, and a 32-byte signature.
// - age's secret keys: Bech32 (BIP 173) with the human-readable part age-secret-key-.
// - Grafana's API keys and Sentry's organization tokens: base64 of a JSON object.
import { crc32 } from 'node:zlib';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `value` in base62, left-padded with 0 to `width` characters. */
export function base62(value: number, width: number): string {
  let out = '';
  for (let rest = value; rest > 0; rest = Math.floor(rest / 62)) out = BASE62[rest % 62]! + out;
  return out.padStart(width, '0');
}

/** GitHub's and npm's scheme: the last 6 of 36 characters are the base62 CRC-32 of the first 30. */
export function crc32ChecksumHolds(body: string): boolean {
  return body.length === 36 && base62(crc32(body.slice(0, 30)), 6) === body.slice(30);
}

/** A classic GitHub token or an npm token: its checksum holds (null: not one of them). */
export function githubOrNpmChecksum(token: string): boolean | null {
  const m = /^(?:gh[pousr]_|npm_)([A-Za-z0-9]{36})$/.exec(token);
  return m ? crc32ChecksumHolds(m[1]!) : null;
}

/** A PyPI token (pypi-<base64url macaroon>): the macaroon parses, from its location to its 32-byte signature. */
export function pypiMacaroonHolds(token: string): boolean {
  const bytes = Buffer.from(token.slice(token.indexOf('-') + 1), 'base64url');
  let at = 0;
  const varint = (): number | null => {
    let value = 0;
    for (let shift = 0; at < bytes.length && shift < 28; shift += 7) {
      const byte = bytes[at++]!;
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
    return null;
  };
  /** The next field's type (0: end of a section), its payload skipped; null where the bytes end early. */
  const field = (): { type: number; length: number } | null => {
    const type = varint();
    if (type === null || type === 0) return type === null ? null : { type, length: 0 };
    const length = varint();
    if (length === null || at + length > bytes.length) return null;
    at += length;
    return { type, length };
  };
  if (bytes[at++] !== 2) return false;
  // header: [location] identifier end
  let next = field();
  if (next?.type === 1) next = field();
  if (next?.type !== 2 || field()?.type !== 0) return false;
  // caveats, each [location] identifier [verification id] end, until an empty one
  for (let caveats = 0; ; caveats++) {
    next = field();
    if (next === null || caveats > 64) return false;
    if (next.type === 0) break;
    if (next.type === 1) next = field();
    if (next?.type !== 2) return false;
    next = field();
    if (next?.type === 4) next = field();
    if (next?.type !== 0) return false;
  }
  const signature = field();
  return signature?.type === 6 && signature.length === 32 && at === bytes.length;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

/** A Bech32 string (BIP 173: hrp, "1", data and 6 check characters, one case) whose checksum holds. */
export function bech32Holds(value: string): boolean {
  const lower = value.toLowerCase();
  const separator = lower.lastIndexOf('1');
  if (separator < 1 || lower.length - separator < 7) return false;
  const values: number[] = [];
  for (const c of lower.slice(0, separator)) values.push(c.charCodeAt(0) >> 5);
  values.push(0);
  for (const c of lower.slice(0, separator)) values.push(c.charCodeAt(0) & 31);
  for (const c of lower.slice(separator + 1)) {
    const digit = BECH32.indexOf(c);
    if (digit < 0) return false;
    values.push(digit);
  }
  let checksum = 1;
  for (const v of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) checksum ^= GENERATOR[i]!;
  }
  return checksum === 1;
}

/** base64 (standard or URL-safe) of a JSON object: a Grafana API key, the middle of a Sentry organization token. */
export function isBase64Json(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}
