import type { Period } from '../plans/usage-period';
import type { ListWindow } from '../shared/list-page';
import type { UsageRecord } from './usage-record';

export interface TopUser {
  userId: number;
  email: string;
  tokens: number;
}

/** Reads of the usage log (`llm_usage_log`); AiCapacity writes it. */
export interface UsageLog {
  /**
   * Newest first (createdAt desc, id desc); `window.after` is a position in that order. Only
   * `userId`'s rows when given, else the organization's.
   */
  list(organizationId: number, userId: number | null, window: ListWindow): Promise<UsageRecord[]>;
  /** Tokens (input + output) a user's calls used in the period (createdAt within it). */
  userTokens(organizationId: number, userId: number, period: Period): Promise<number>;
  /** The organization's users by tokens used in the period, most first (ties: lower id), at most `limit`. */
  topUsers(organizationId: number, period: Period, limit: number): Promise<TopUser[]>;
}
