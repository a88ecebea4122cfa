import * as v from 'valibot';
import type { GetUsageSummary } from '../../../core/ai/get-usage-summary.use-case';
import type { ListTopUsers } from '../../../core/ai/list-top-users.use-case';
import type { ListUsageHistory } from '../../../core/ai/list-usage-history.use-case';
import type { UsageRecord } from '../../../core/ai/usage-record';
import { listBody } from '../list-response';
import { NEXT_LINK_HEADER } from '../paging';
import { defineRoute, type AnyRoute } from '../route';
import { TopUserResponse, UsageHistoryQuery, UsageRecordResponse, UsageSummaryResponse } from '../schemas/ai.schemas';

export interface UsageUseCases {
  getUsageSummary: GetUsageSummary;
  listUsageHistory: ListUsageHistory;
  listTopUsers: ListTopUsers;
}

const TAG = 'Usage';

const toRecord = (record: UsageRecord): v.InferOutput<typeof UsageRecordResponse> => ({
  id: record.id,
  organization_id: record.organizationId,
  user_id: record.userId,
  feature: record.feature,
  model: record.model,
  input_tokens: record.inputTokens,
  output_tokens: record.outputTokens,
  allotment_tokens: record.allotmentTokens,
  credit_tokens: record.creditTokens,
  overage_tokens: record.overageTokens,
  cost_usd: record.costUsd,
  created_at: record.createdAt.toISOString(),
});

/** The organization's AI usage: the period's summary, the call history, the heaviest users. */
export function usageRoutes(useCases: UsageUseCases, options: { baseApiUrl: string }): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/usage/summary',
      tag: TAG,
      operationId: 'getUsageSummary',
      summary: "The organization's AI usage in the current period, and the caller's share",
      description:
        "The usage period (`start` included, `end` excluded), the plan's `token_limit` (-1 unlimited), the tokens charged to the allotment and to overage in it, the credit balance, and the tokens the caller's own calls used.",
      access: 'member',
      apiKeys: 'accepted',
      responses: { 200: { description: 'The summary', schema: UsageSummaryResponse } },
      handler: async ({ caller }) => {
        const summary = await useCases.getUsageSummary.execute(caller);
        return {
          status: 200,
          body: {
            period: { start: summary.period.start.toISOString(), end: summary.period.end.toISOString() },
            token_limit: summary.tokenLimit,
            allotment_used: summary.allotmentUsed,
            credit_balance: summary.creditBalance,
            overage_tokens: summary.overageTokens,
            my_tokens: summary.myTokens,
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/usage/history',
      tag: TAG,
      operationId: 'listUsageHistory',
      summary: 'AI calls, newest first: a member sees their own, an org_admin the whole organization’s',
      description: 'One row per settled copilot call: the tokens the model used and how they were charged (allotment, credits, overage), and their cost. With `limit`, one page and `Link: <…>; rel="next"` while more remain.',
      access: 'member',
      apiKeys: 'accepted',
      query: UsageHistoryQuery,
      responses: { 200: { description: 'A page of usage records; all of them without `limit`', schema: v.array(UsageRecordResponse), headers: NEXT_LINK_HEADER } },
      handler: async ({ caller, query, ctx }) => ({
        status: 200,
        body: await listBody(ctx, query, { page: (request) => useCases.listUsageHistory.execute(caller, request), toResponse: toRecord }, { baseApiUrl: options.baseApiUrl, path: '/usage/history' }),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/usage/top-users',
      tag: TAG,
      operationId: 'listTopUsers',
      summary: "The organization's ten heaviest AI users in the current period",
      description: 'Tokens (input plus output) per user in the current usage period, most first, at most 10.',
      access: 'org_admin',
      apiKeys: 'accepted',
      responses: { 200: { description: 'The users, most tokens first', schema: v.array(TopUserResponse) } },
      handler: async ({ caller }) => ({
        status: 200,
        body: (await useCases.listTopUsers.execute(caller)).map((user) => ({ user_id: user.userId, email: user.email, tokens: user.tokens })),
      }),
    }),
  ];
}
