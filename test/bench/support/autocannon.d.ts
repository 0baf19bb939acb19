// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Percentiles {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    total?: number;
  }
  export interface Result {
    requests: Percentiles & { total: number; sent: number };
    latency: Percentiles;
    throughput: Percentiles;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats?: Record<string, { count: number }>;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    overallRate?: number;
    pipelining?: number;
    timeout?: number;
    workers?: number;
  }
  function autocannon(options: Options): Promise<Result> & { stop(): void };
  export default autocannon;
}
