import { Readable } from 'node:stream';
import type { RunCopilotCall } from '../../../core/ai/run-copilot-call.use-case';
import type { CopilotFeature } from '../../../core/ai/usage-record';
import { defineRoute, type AnyRoute, type HandlerInput } from '../route';
import { CopilotRequest } from '../schemas/ai.schemas';
import { NoteIdParams } from '../schemas/note.schemas';

export interface CopilotUseCases {
  runCopilotCall: RunCopilotCall;
}

const TAG = 'AI';
const TEXT = 'text/plain; charset=utf-8';

const CHECKS =
  'Checked in this order before a byte is streamed: the note is one of the caller\'s (404 `RESOURCE_NOT_FOUND`); AI is configured on the server (403 `FEATURE_DISABLED` `{feature_key: "enable_ai", reason: "model_not_configured", missing_setting}` naming the setting) and the plan\'s `enable_ai` is on (403 `FEATURE_DISABLED` `{feature_key: "enable_ai"}`); the organization\'s AI capacity (allotment left plus credits) holds the call (403 `QUOTA_EXCEEDED` `{feature_key: "token_limit", limit}`). A model that fails before its first byte: 503 `SERVICE_UNAVAILABLE`, nothing charged. Then the answer streams as `text/plain`, chunk by chunk as the model writes; a failure mid-way cuts it short. Only the tokens the model used are charged (allotment first, then credits, then overage when both overage switches are on); a client that disconnects stops the model. The note is not changed.';

/**
 * Streams the model's answer as it comes: the response body is a stream fed delta by delta, each
 * written to the socket as it arrives (nothing buffers it on the way), with the same headers as
 * every response. The call's life (checks, deadline, settlement) is the use case's; the edge
 * tells it when the client goes away, and closes it once the response is done with.
 */
async function stream(run: RunCopilotCall, feature: CopilotFeature, input: HandlerInput<typeof CopilotRequest, typeof NoteIdParams, undefined, 'member', 'refused'>) {
  const { ctx, params, body } = input;
  const leaving = new AbortController();
  const onClose = () => {
    if (!ctx.res.writableFinished) leaving.abort();
  };
  ctx.res.once('close', onClose);
  let answer;
  try {
    answer = await run.execute(input.caller, { feature, noteId: params.note_id, tone: body.tone, signal: leaving.signal });
  } catch (error) {
    ctx.res.off('close', onClose);
    throw error;
  }
  const text = Readable.from(answer.chunks(), { objectMode: false });
  text.once('close', () => void answer.close());
  ctx.type = TEXT;
  return { status: 200, body: text };
}

const ACTIONS = [
  {
    path: '/notes/{note_id}/copilot/improve',
    operationId: 'improveNote',
    feature: 'improve',
    summary: "Rewrite one of the caller's notes with the AI copilot, streamed",
    what: 'Rewrites the note for clarity, correctness and the requested `tone`.',
    answer: 'The rewritten note, streamed as the model writes it',
  },
  {
    path: '/notes/{note_id}/copilot/summarize',
    operationId: 'summarizeNote',
    feature: 'summarize',
    summary: "Summarize one of the caller's notes with the AI copilot, streamed",
    what: 'Summarizes the note in a few sentences, in the requested `tone`.',
    answer: 'The summary, streamed as the model writes it',
  },
] as const;

export function copilotRoutes(useCases: CopilotUseCases): AnyRoute[] {
  return ACTIONS.map((action) =>
    defineRoute({
      method: 'post',
      path: action.path,
      tag: TAG,
      operationId: action.operationId,
      summary: action.summary,
      description: `${action.what} ${CHECKS}`,
      access: 'member',
      apiKeys: 'refused',
      params: NoteIdParams,
      body: CopilotRequest,
      responses: { 200: { description: action.answer, mediaType: TEXT } },
      errors: ['RESOURCE_NOT_FOUND', 'FEATURE_DISABLED', 'QUOTA_EXCEEDED', 'SERVICE_UNAVAILABLE'],
      handler: (input) => stream(useCases.runCopilotCall, action.feature, input),
    }),
  );
}
