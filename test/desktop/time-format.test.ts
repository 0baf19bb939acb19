// How the dashboard shows durations, and when a token's time is up.
import { describe, expect, it } from 'vitest';
import { formatDuration, isExpired } from '../../desktop/renderer/time-format.ts';

describe('formatDuration', () => {
  it('says seconds with a tenth under 10 s, then whole seconds and minutes', () => {
    expect(formatDuration(2500)).toBe('2.5 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });
});

describe('isExpired', () => {
  it('marks expired tokens', () => {
    expect(isExpired(null)).toBe(false);
    expect(isExpired('2000-01-01T00:00:00.000Z')).toBe(true);
  });
});
