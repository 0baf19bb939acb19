// The secrets peer bench's judge of made-up values (support/secrets-peer/value-shape.ts): what it
// calls made up must be so by a reason a reader can check, and random values of every alphabet a
// provider uses (hex, base62, base36) must not be called made up, beyond chance (or the bench's
// real-shape figures would flatter).
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

  it('leaves real shapes alone: a run of A inside a Twitter bearer token, random hex, base62 and base36 values', () => {
    expect(
      madeUpBecause(`${'A'.repeat(22)}OYsWvIGA2zC0OHtBAy1VoVIx8E9VEc4U9bbBpTiHzNnrhAXwWE8nVQNhQIkg1vt8a7`),
    ).toBeNull();
    const r = randomSource(20261129);
    // [alphabet, length, most judged made up of 2,000]: chance alone (five in order, a chunk three
    // times) is about 1 in 1,000 of 40 hex characters, 5 in 1,000 of 200, 3 in 10,000 of base62
    const cases: [string, string, number, number][] = [
      ['hex', '0123456789abcdef', 40, 6],
      ['hex', '0123456789abcdef', 200, 20],
      ['base62', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 40, 2],
      ['base62', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 200, 3],
      ['base36', 'abcdefghijklmnopqrstuvwxyz0123456789', 40, 3],
    ];
    for (const [name, alphabet, length, most] of cases) {
      const judged = Array.from({ length: 2000 }, () => r(alphabet, length)).filter((v) => madeUpBecause(v) !== null);
      expect(judged.length, `${name} ${length}: ${judged.slice(0, 3).join(' ')}`).toBeLessThanOrEqual(most);
    }
  });

  it('judges a text by every candidate for its credential: made up only when all of them are', () => {
    expect(madeUpTextBecause('CLERK_SECRET_KEY=sk_live_aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV')).toBe('a counting sequence');
    expect(madeUpTextBecause('ORG_ID=abcd1234-ef56-gh78 TOKEN=Wq7TnR2vK9pLxD4sZ8yN3cF6hJ1dG5bV')).toBeNull();
    expect(madeUpTextBecause('no candidate here: just words')).toBeNull();
  });
});
