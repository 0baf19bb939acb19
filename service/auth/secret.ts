// Token secrets: `drv_` + 32 random base62 characters + a 6-character base62 CRC32 of the random
// part, the way GitHub's tokens look, so secret scanners recognise them and typos fail fast.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 32;
const CHECKSUM_CHARS = 6;
export const SECRET_PREFIX = 'drv_';
const SECRET_PATTERN = new RegExp(`^${SECRET_PREFIX}([0-9A-Za-z]{${RANDOM_CHARS},})([0-9A-Za-z]{${CHECKSUM_CHARS}})$`);

/** A new secret: ~190 bits of randomness. */
export function mintSecret(): string {
  let random = '';
  while (random.length < RANDOM_CHARS) {
    for (const byte of randomBytes(RANDOM_CHARS)) {
      // 248 = 4 × 62: rejecting the rest keeps every character equally likely
      if (byte < 248 && random.length < RANDOM_CHARS) random += BASE62[byte % 62];
    }
  }
  return SECRET_PREFIX + random + checksum(random);
}

/** True when the text has the shape of one of our secrets and its checksum matches. */
export function isWellFormedSecret(secret: string): boolean {
  const match = SECRET_PATTERN.exec(secret);
  return match !== null && checksum(match[1]!) === match[2];
}

/** SHA-256 of the secret, hex; one-shot (every authenticated request hashes its token). */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** SHA-256 of the secret, as bytes. */
export function secretDigest(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/** Constant-time comparison of two SHA-256 digests as bytes. */
export function sameDigest(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The first 8 characters, shown in lists so people can tell their tokens apart. */
export const secretPrefix = (secret: string) => secret.slice(0, 8);

function checksum(random: string): string {
  let n = crc32(random);
  let out = '';
  for (let i = 0; i < CHECKSUM_CHARS; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}
