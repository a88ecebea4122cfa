import type { Logger } from 'pino';

/**
 * Work a route starts but does not wait for, so its duration cannot show in the response time.
 * `/password/forgot` and `/auth/resend-verification` answer the same for every address; the
 * token and email they write for an existing account must not make that answer slower, or the
 * response time tells which addresses have accounts. Such work starts on the next turn of the
 * event loop, after the response is written. A failure is logged (the caller has had its 202 already:
 * the user asks again); `drain` lets a shutdown finish what was started before the pool closes.
 */
export class AfterResponse {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(task: string, work: () => Promise<unknown>): void {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .then(
        () => undefined,
        (error: unknown) => {
          const err = error instanceof Error ? { type: error.name, message: error.message, stack: error.stack } : { message: String(error) };
          this.logger.error({ task, err }, 'work after the response failed');
        },
      )
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Resolves once every task started so far has settled. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
