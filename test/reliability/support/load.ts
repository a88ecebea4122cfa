/**
 * A closed-loop load generator: `concurrency` clients each send one request, wait for its answer
 * (or its time-out), pause `pauseMs`, and go again until `durationMs` has passed. Every answer is
 * recorded with when it was sent and how long it took, so a test can split them into phases
 * (before, during and after a fault) afterwards.
 */
export interface Sample {
  /** ms since the load started, when the request was sent. */
  at: number;
  ms: number;
  /** HTTP status, or 0 when there was no answer (connection error or client time-out). */
  status: number;
  kind: string;
  error?: string;
  code?: string;
  retryAfter?: string | null;
}

export interface LoadStep {
  kind: string;
  /** Sends the request; resolve with the Response. */
  send(signal: AbortSignal): Promise<Response>;
  /** Called with a 2xx answer's parsed body (writes record what was acknowledged). */
  acknowledged?(body: unknown): void;
}

export interface LoadOptions {
  concurrency: number;
  durationMs: number;
  pauseMs?: number;
  /** A request with no answer within this is recorded as status 0 (a hang). */
  timeoutMs?: number;
  /** Each client picks its next request from this. */
  next(client: number, iteration: number): LoadStep;
  /**
   * Called with the elapsed ms about every 250 ms: tests inject faults from here. `now()` gives
   * the elapsed ms later on, for stamping when an asynchronous fault action completed.
   */
  onTick?(elapsedMs: number, now: () => number): void;
}

export async function runLoad(options: LoadOptions): Promise<{ samples: Sample[]; startedAt: number }> {
  const samples: Sample[] = [];
  const startedAt = Date.now();
  const elapsed = () => Date.now() - startedAt;
  const ticker = options.onTick ? setInterval(() => options.onTick!(elapsed(), elapsed), 250) : undefined;
  const client = async (index: number) => {
    for (let iteration = 0; elapsed() < options.durationMs; iteration += 1) {
      const step = options.next(index, iteration);
      const at = elapsed();
      const sent = performance.now();
      try {
        const response = await step.send(AbortSignal.timeout(options.timeoutMs ?? 10_000));
        const text = await response.text();
        const sample: Sample = { at, ms: performance.now() - sent, status: response.status, kind: step.kind };
        if (response.status >= 400) {
          sample.code = safeCode(text);
          sample.retryAfter = response.headers.get('retry-after');
        } else if (step.acknowledged) {
          step.acknowledged(text ? JSON.parse(text) : undefined);
        }
        samples.push(sample);
      } catch (error) {
        samples.push({ at, ms: performance.now() - sent, status: 0, kind: step.kind, error: (error as Error).name + ': ' + (error as Error).message });
      }
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, (_, index) => client(index)));
  } finally {
    if (ticker) clearInterval(ticker);
  }
  return { samples, startedAt };
}

function safeCode(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

/** Count of samples per status, as `{ "201": 812, "503": 40 }`. */
export function byStatus(samples: readonly Sample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const sample of samples) counts[String(sample.status)] = (counts[String(sample.status)] ?? 0) + 1;
  return counts;
}

/** A sample in one line, for assertion messages. */
export function brief(sample: Sample): string {
  const outcome = sample.status === 0 ? sample.error : `${sample.status}${sample.code ? ` ${sample.code}` : ''}`;
  return `${sample.kind} sent at ${Math.round(sample.at)} ms: ${outcome} after ${Math.round(sample.ms)} ms`;
}
