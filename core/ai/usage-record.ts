/** The copilot's two actions; each call is logged under one. */
export type CopilotFeature = 'improve' | 'summarize';

/**
 * One settled model call (`llm_usage_log`): what the provider reported, and how it was charged.
 * `allotmentTokens + creditTokens + overageTokens` is at most `inputTokens + outputTokens`; it is
 * less only when a call used more than its reservation and nothing was left to charge it to
 * (overage off): the service bears that, never the customer's cap.
 */
export interface UsageRecord {
  id: number;
  organizationId: number;
  /** Null once the user is deleted: the organization's usage (and its bill) outlives them. */
  userId: number | null;
  feature: CopilotFeature;
  model: string;
  inputTokens: number;
  outputTokens: number;
  allotmentTokens: number;
  creditTokens: number;
  overageTokens: number;
  /** Null when the model has no price on record. */
  costUsd: number | null;
  createdAt: Date;
}
