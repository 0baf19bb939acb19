import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReconnectBackoff } from '../../desktop/main/reconnect-backoff.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ReconnectBackoff', () => {
  it('doubles the delay after each failed retry up to the longest, and starts over after reset', () => {
    const backoff = new ReconnectBackoff({ firstMs: 100, maxMs: 350 });
    const delays: number[] = [];
    for (let failures = 0; failures < 4; failures += 1) {
      delays.push(backoff.schedule(() => {}) - Date.now());
      backoff.failed();
    }
    expect(delays).toEqual([100, 200, 350, 350]);
    expect(backoff.attempt).toBe(4);
    backoff.reset();
    expect(backoff.attempt).toBe(0);
    expect(backoff.schedule(() => {}) - Date.now()).toBe(100);
    backoff.cancel();
  });

  it('runs the retry once its delay has passed, not before; a new schedule or cancel replaces it', () => {
    const backoff = new ReconnectBackoff({ firstMs: 100 });
    const retry = vi.fn();
    backoff.schedule(retry);
    vi.advanceTimersByTime(99);
    expect(retry).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(retry).toHaveBeenCalledTimes(1);

    const replaced = vi.fn();
    backoff.schedule(replaced);
    backoff.schedule(retry);
    backoff.cancel();
    vi.advanceTimersByTime(1000);
    expect(replaced).not.toHaveBeenCalled();
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('defaults to 1 s doubling up to 30 s', () => {
    const backoff = new ReconnectBackoff();
    const delays: number[] = [];
    for (let failures = 0; failures < 7; failures += 1) {
      delays.push(backoff.schedule(() => {}) - Date.now());
      backoff.failed();
    }
    backoff.cancel();
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });
});
