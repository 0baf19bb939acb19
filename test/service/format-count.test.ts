import { describe, expect, it } from 'vitest';
import { formatCount } from '../../service/format-count.ts';

describe('formatCount', () => {
  it('writes whole numbers as toLocaleString("en") does', () => {
    const values = [0, 7, 999, 1_000, 9_999, 10_000, 123_456, 999_999, 1_000_000, 10_485_760, 2_147_483_647];
    values.push(Number.MAX_SAFE_INTEGER, -1, -1_000, -1_234_567);
    for (let i = 0; i < 2_000; i++) values.push(Math.floor(Math.random() * 10 ** Math.floor(Math.random() * 16)));
    for (const value of values) expect(formatCount(value)).toBe(value.toLocaleString('en'));
  });
});
