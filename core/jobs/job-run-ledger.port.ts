/**
 * The shared record that makes "at most once per period" hold across instances that each keep
 * their own timer. Periods are named by their start instant, `floor(t / everyMs) · everyMs`.
 */
export interface JobRunLedger {
  /**
   * Claims the period starting at `periodStart` for `job`. Resolves true for exactly one caller
   * per job and period, however many race; false when that period, or a later one, was already
   * claimed. A claim is never given back: a run that fails or dies waits for the next period.
   */
  claimPeriod(job: string, periodStart: Date): Promise<boolean>;
}
