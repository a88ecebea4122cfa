/**
 * "Equal jitter" backoff for the n-th failed attempt (1-based): uniform in [ceiling/2, ceiling]
 * with ceiling = min(maxDelayMs, baseDelayMs·2^(n−1)). The jitter spreads senders that failed
 * together; the floor keeps the total retry window (how long an outage can last before work is
 * given up) at least half its nominal length.
 */
export function equalJitterBackoffMs(policy: { baseDelayMs: number; maxDelayMs: number }, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
