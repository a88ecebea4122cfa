import type { Clock } from '../../core/shared/clock.port';

/** A clock that moves only when told to: expiry boundaries can be hit to the millisecond. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-11-21T10:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  advanceSeconds(seconds: number): void {
    this.advance(seconds * 1000);
  }

  set(at: Date | string): void {
    this.current = new Date(at).getTime();
  }
}
