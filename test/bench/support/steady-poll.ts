// A steady poller: GET a URL at an even rate, as clients polling on their own timers would, and
// time each request in fractions of a millisecond. autocannon is the flood generator here, but
// not a poller: its rate limit (overallRate) sends each second's requests in a burst at the start
// of the second, and its latencies are whole milliseconds. Against a server whose p99 is ~0.7 ms
// it reported 1 to 14 ms for the same idle bare server from run to run, so "busy p99 ÷ idle p99"
// was mostly noise. No maintained load generator on npm sends requests evenly with sub-millisecond
// timing (loadtest's rate does, but truncates to whole milliseconds), hence these few lines.
import http from 'node:http';
import { percentile } from './harness.ts';

export interface SteadyPollOptions {
  url: string;
  headers?: Record<string, string>;
  /** Requests per second, evenly spaced. */
  rate: number;
  seconds: number;
  /** Keep-alive connections; a request due while all are busy waits for one (and that wait counts). */
  connections: number;
}

export interface SteadyPollResult {
  requests: number;
  /** Answers other than 200, and failed requests. */
  errors: number;
  /** From the moment each request was sent to its last byte, ms. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** How late the poller itself sent requests (its own event loop's delay), p99, ms. */
  lateP99: number;
}

export async function steadyPoll(options: SteadyPollOptions): Promise<SteadyPollResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const every = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  const lateness: number[] = [];
  let errors = 0;
  let sent = 0;
  let answered = 0;
  const start = performance.now() + 10;
  await new Promise<void>((resolve) => {
    const settle = (sentAt: number, ok: boolean) => {
      latencies.push(performance.now() - sentAt);
      if (!ok) errors++;
      if (++answered === total) resolve();
    };
    const tick = () => {
      const now = performance.now();
      // Catch up on every request that is due: a late timer must not thin out the rate.
      for (; sent < total && start + sent * every <= now; sent++) {
        lateness.push(now - (start + sent * every));
        const sentAt = performance.now();
        http
          .get(options.url, { agent, headers: options.headers }, (response) => {
            response.resume();
            response.once('end', () => settle(sentAt, response.statusCode === 200));
            response.once('error', () => settle(sentAt, false));
          })
          .once('error', () => settle(sentAt, false));
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * every - performance.now()));
    };
    tick();
  });
  agent.destroy();
  return {
    requests: total,
    errors,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
    lateP99: percentile(lateness, 99),
  };
}
