/** The part of autocannon 9's programmatic API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  export interface RawRequest {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: string | Buffer;
  }

  export interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before every send; mutate and return the request (a fresh copy each time). */
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest | null;
  }

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds before a request counts as a time-out. */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: RequestSpec[];
    skipAggregateResult?: boolean;
    title?: string;
  }

  export interface Histogram {
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
    totalCount?: number;
  }

  /** What an instance run with `skipAggregateResult` resolves to: histograms still encoded. */
  export interface RawResult {
    /** Seconds, to the hundredth. */
    duration: number;
    totalCompletedRequests: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Result extends RawResult {
    latency: Histogram;
  }

  export interface Instance extends PromiseLike<RawResult> {
    stop(): void;
    /** Once a second: the responses completed in that second. */
    on(event: 'tick', listener: (tick: { counter: number; bytes: number }) => void): this;
    /** Each response, as it completes. */
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, milliseconds: number) => void): this;
  }

  interface Autocannon {
    (options: Options & { skipAggregateResult: true }): Instance;
    /** Merges raw results (their latency histograms included). Mutates the first one's statusCodeStats. */
    aggregateResult(results: RawResult[], options?: Partial<Options>): Result;
  }

  const autocannon: Autocannon;
  export default autocannon;
}
