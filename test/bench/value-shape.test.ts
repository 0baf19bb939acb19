// The secrets peer bench's judge of made-up values (support/secrets-peer/value-shape.ts): what it
// calls made up must be so by a reason a reader can check, and random values of every alphabet a
// provider uses must not be called made up (or the bench's real-shape figures would flatter).
import { describe, expect, it } from 'vitest';
import { randomSource } from '../support/random-text.ts';
import { madeUpBecause, madeUpTextBecause } from './support/secrets-peer/value-shape.ts';

describe('the peer bench judge of made-up values', () => {
  it.each([
    ['shippo_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'a run of one character'],
    ['AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ', 'a run of one character'],
    [`sk-${'A'.repeat(48)}`, 'a run of one character'],
    ['sk-a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ1234567890ao', 'a counting sequence'],
    ['abc123def456ghi789jkl012mno345', 'a counting sequence'],
    ['z9y8x7w6v5u4t3s2r1q0p9o8n7m6l5', 'a counting sequence'],
    ['ZUfake+eKo3qNxLDfake/6vqjOtr4fa6u5wShfakes8=', 'a marker word'],
    ['SKxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'a marker word'],
    ['-ABCD-ABCD-ABCD-', 'a repeated chunk'],
    ['testuser1005@ex.io', 'an e-mail address'],
    ['amqps://user123:pass456@rabbit:5672/vhost', 'user:password words'],
  ])('%s: %s', (value, reason) => {
    expect(madeUpBecause(value)).toBe(reason);
  });

  it('leaves real shapes alone: a run of A inside a Twitter bearer token, random values of every alphabet', () => {
    expect(
      madeUpBecause(`${'A'.repeat(22)}OYsWvIGA2zC0OHtBAy1VoVIx8E9VEc4U9bbBpTiHzNnrhAXwWE8nVQNhQIkg1vt8a7`),
    ).toBeNull();
    const r = randomSource(20261129);
    const alphabets = {
      hex: '0123456789abcdef',
      base62: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
      lower: 'abcdefghijklmnopqrstuvwxyz0123456789',
    };
    for (const [name, alphabet] of Object.entries(alphabets)) {
      const judged = Array.from({ length: 2000 }, () => r(alphabet, 40)).filter((v) => madeUpBecause(v) !== null);
      // chance alone: a few in a thousand (five in order, a chunk three times)
      expect(judged.length, `${name}: ${judged.slice(0, 3).join(' ')}`).toBeLessThan(20);
    }
  });

  it('judges a text by every candidate for its credential: made up only when all of them are', () => {
    expect(madeUpTextBecause('CLERK_SECRET_KEY=sk_live_aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV')).toBe('a counting sequence');
    expect(madeUpTextBecause('ORG_ID=abcd1234-ef56-gh78 TOKEN=Wq7TnR2vK9pLxD4sZ8yN3cF6hJ1dG5bV')).toBeNull();
    expect(madeUpTextBecause('no candidate here: just words')).toBeNull();
  });
});
