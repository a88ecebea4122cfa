import type { ServerResponse } from 'node:http';
import type { CopilotAnswer, RunCopilotCall } from '../../../core/ai/run-copilot-call.use-case';
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
 * Streams the model's answer as it comes: each delta is written to the socket as it arrives
 * (nothing buffers it on the way), with the same headers as every response (set on the response
 * before the route ran). The call's life (checks, deadline, settlement) is the use case's; the
 * edge tells it when the client goes away.
 *
 * The deltas go to `res.write` here, not through a stream handed to Koa as `ctx.body`
 * (`ctx.respond = false`): Koa pipes a body stream with `stream.pipeline`, and
 * `Readable.from` + `pipeline` cost about as much CPU per delta as everything else the copilot
 * does with it (docs/benchmarks.md, "AI copilot: where the first-byte time goes"). A refusal
 * is thrown before this point, so it is answered as every error is.
 */
async function stream(run: RunCopilotCall, feature: CopilotFeature, input: HandlerInput<typeof CopilotRequest, typeof NoteIdParams, undefined, 'member', 'refused'>) {
  const { ctx, params, body } = input;
  const res = ctx.res;
  const leaving = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) leaving.abort();
  };
  res.once('close', onClose);
  let answer;
  try {
    answer = await run.execute(input.caller, { feature, noteId: params.note_id, tone: body.tone, signal: leaving.signal });
  } catch (error) {
    res.off('close', onClose);
    throw error;
  }
  ctx.status = 200;
  res.setHeader('Content-Type', TEXT);
  ctx.respond = false;
  void writeAnswer(answer, res);
  return { status: 200 };
}

/**
 * Writes the answer delta by delta, waiting for the socket to drain when it is full. A client
 * that leaves stops the model (the use case hears it through its signal) and ends the loop;
 * leaving the loop early ends the call too. Either way the call is settled once, by the use case.
 */
async function writeAnswer(answer: CopilotAnswer, res: ServerResponse): Promise<void> {
  try {
    for await (const chunk of answer.chunks()) {
      if (res.destroyed) break;
      if (!res.write(chunk)) await drained(res);
    }
    res.end();
  } catch {
    // The use case ends a failing stream quietly (the text is cut short): only a bug gets here.
    res.destroy();
    await answer.close();
  }
}

const drained = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });

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
