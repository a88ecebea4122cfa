import type { AiDeps } from './ai-deps';

const BATCH_SIZE = 500;

/**
 * Releases reservations whose process died before settling them (their `expiresAt` passed),
 * giving their held credits back, charging nothing. In bounded batches, until none is left.
 */
export class ReleaseExpiredReservations {
  constructor(private readonly deps: Pick<AiDeps, 'capacity' | 'clock' | 'logger'>) {}

  async execute(): Promise<{ released: number }> {
    const now = this.deps.clock.now();
    let released = 0;
    for (;;) {
      const batch = await this.deps.capacity.releaseExpired(now, BATCH_SIZE);
      released += batch;
      if (batch < BATCH_SIZE) break;
    }
    if (released > 0) this.deps.logger.warn({ released }, 'released AI reservations that were never settled (their process stopped mid-call)');
    return { released };
  }
}
