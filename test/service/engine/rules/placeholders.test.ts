// What the secret rules call a placeholder (rules/secrets/placeholders.ts): letters and digits
// counted in turns, as people type them for tests; and that random values, short and long, are
// next to never called one (a real credential judged a placeholder is a silent miss).
import { describe, expect, it } from 'vitest';
import { isPlaceholderSecret } from '../../../../service/engine/rules/secrets/placeholders.ts';
import { randomSource } from '../../../support/random-text.ts';

describe('placeholders: words in long values', () => {
  it('a word said twice in a long value is a placeholder, once is chance', () => {
    const random = 'Qm7xT2vK9pLwR4sZ8yN3';
    expect(isPlaceholderSecret(`ABSKQmVkcm9ja0FQSUtleS1${'EXAMPLE'.repeat(20)}`)).toBe(true);
    expect(
      isPlaceholderSecret(`${random.repeat(3)}fake${'hJ1dG5bV0aE2iU7oX9qMk3Lz5Wn8Rt0Yp2Hs4Dj6Fg'.repeat(3)}`),
    ).toBe(false);
    expect(isPlaceholderSecret('ZUfake+eKo3qNxLDfake/6vqjOtr4fa6u5wSh=')).toBe(true);
  });
});

describe('placeholders: counted in turns', () => {
  it.each([
    'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4', // letters up
    'z9y8x7w6v5u4t3s2r1q0p9o8n7m6l5', // letters and digits down
    'abc123def456ghi789jkl012', // digits up, three at a time
    '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d', // digits up between hex letters
    'Qx7mKp2T-gfedcba-Wz4R', // seven letters down in a row
  ])('%s is a placeholder', (value) => {
    expect(isPlaceholderSecret(value)).toBe(true);
  });

  it('needs the count close together, and leaves long values alone', () => {
    // a to g, four characters apart: a count over 24 characters, not one typed
    expect(isPlaceholderSecret('aXQ9bZR7cKW4dPL8eMT2fHV6gNY3')).toBe(false);
    // the same count inside a value of more than 128 characters (a key's base64, a long JWT)
    expect(isPlaceholderSecret(`${'Qm7xT2vK9pLwR4sZ8yN3'.repeat(7)}a1B2c3D4e5F6g7`)).toBe(false);
  });

  it('calls random values placeholders next to never, short or long', () => {
    const r = randomSource(20261129);
    const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const judged = (alphabet: string, length: number) =>
      Array.from({ length: 5000 }, () => r(alphabet, length)).filter(isPlaceholderSecret).length;
    // measured: 0, 0, 1 and 0 (the long base64 16 before a placeholder word had to come twice
    // there: fake or xxxx turn up in one of 300 such values by chance)
    expect(judged(B64.slice(0, 62), 40)).toBeLessThanOrEqual(1);
    expect(judged('0123456789abcdef', 64)).toBeLessThanOrEqual(2);
    expect(judged('0123456789abcdef', 128)).toBeLessThanOrEqual(3);
    expect(judged(B64, 1200)).toBeLessThanOrEqual(2);
  });
});
