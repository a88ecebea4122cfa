import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { outputMessage, responseObject, sseEvent, wireUsage, type WireEvent, type WireEventType, type WireResponse } from './openai-fake-wire';

/** How the call ends once its deltas are sent (the `http-*` ones answer before any stream). */
export type FakeEnding =
  | 'completed' // response.completed with usage (the normal end)
  | 'incomplete' // response.incomplete: stopped at max_output_tokens, usage still reported
  | 'failed-event' // response.failed with a server_error
  | 'error-event' // an `error` event
  | 'cut' // the socket is destroyed after the deltas, no terminal event
  | 'ended-early' // the response ends cleanly after the deltas, no terminal event (a proxy that gave up)
  | 'hang' // the stream stays open after the deltas until the client goes away
  | 'http-500' // 500 with OpenAI's JSON error body, before any stream
  | 'http-429'; // 429 rate_limit_exceeded with `retry-after`, before any stream

export interface FakeResponseScript {
  /** The text deltas to send, or how many to generate (`"lorem "`, `"ipsum "` …). Default 3. */
  deltas?: readonly string[] | number;
  /** Wait before the response headers. Default 0. */
  firstByteDelayMs?: number;
  /** Wait before each delta (a fixed per-token latency). Default 0. */
  deltaDelayMs?: number;
  /** The usage the terminal event reports; `null` reports none. Default: ~4 characters a token in, one token per delta out. */
  usage?: { inputTokens: number; outputTokens: number } | null;
  /** Default `completed`. */
  ending?: FakeEnding;
}

const WORDS = ['lorem ', 'ipsum ', 'dolor ', 'sit ', 'amet, ', 'consectetur ', 'adipiscing ', 'elit. '];
const deltasOf = (deltas: FakeResponseScript['deltas'] = 3): readonly string[] =>
  typeof deltas === 'number' ? Array.from({ length: deltas }, (_, i) => WORDS[i % WORDS.length]!) : deltas;

/**
 * The body of one scripted streaming answer, as OpenAI's Responses API writes it: the opening
 * events, one `response.output_text.delta` per delta, then the ending the script asks for.
 */
export async function writeStream(
  res: ServerResponse,
  body: Record<string, unknown>,
  script: FakeResponseScript,
  /** Aborted when the client goes away. */
  gone: AbortSignal,
  /** Called when the fake has sent all it means to: a close after it is not an abort. */
  done: () => void,
): Promise<void> {
  const ending = script.ending ?? 'completed';
  const wait = async (ms: number | undefined) => !ms || (await sleep(ms, true, { signal: gone }).catch(() => false));

  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  let sequence = 0;
  const event = <T extends WireEventType>(type: T, data: WireEvent<T>) => sseEvent(type, data, sequence++);
  const response = responseObject(body, Math.floor(Date.now() / 1000));
  const itemId = `msg_${randomBytes(24).toString('hex')}`;
  const at = { item_id: itemId, output_index: 0, content_index: 0 };
  const deltaEvent = (delta: string) => event('response.output_text.delta', { ...at, delta, logprobs: [] });
  res.write(
    event('response.created', { response }) +
      event('response.in_progress', { response }) +
      event('response.output_item.added', { output_index: 0, item: outputMessage(itemId, '', 'in_progress') }) +
      event('response.content_part.added', { ...at, part: { type: 'output_text', annotations: [], logprobs: [], text: '' } }),
  );

  // Resolves once the chunk is handed to the socket: a cut must not discard what was "sent".
  const send = (chunk: string) => new Promise<void>((resolve) => res.write(chunk, () => resolve()));
  const deltas = deltasOf(script.deltas);
  if (script.deltaDelayMs) {
    for (const delta of deltas) {
      if (!(await wait(script.deltaDelayMs))) return;
      await send(deltaEvent(delta));
    }
  } else {
    // No latency to imitate: one write, so a benchmark measures the client rather than the fake.
    await send(deltas.map(deltaEvent).join(''));
  }

  if (ending === 'cut') {
    done();
    res.socket?.destroy();
    return;
  }
  if (ending === 'ended-early') {
    done();
    return void res.end();
  }
  if (ending === 'hang') return; // until the client leaves, which counts as an abort
  done();
  if (ending === 'failed-event') {
    const error = { code: 'server_error' as const, message: 'The model failed to generate a response.' };
    return void res.end(event('response.failed', { response: { ...response, status: 'failed', error } }));
  }
  if (ending === 'error-event') {
    return void res.end(event('error', { code: 'server_error', message: 'The server had an error while processing your request.', param: null }));
  }
  const text = deltas.join('');
  const incomplete = ending === 'incomplete';
  const message = outputMessage(itemId, text, incomplete ? 'incomplete' : 'completed');
  const usage = script.usage === null ? undefined : (script.usage ?? defaultUsage(body, deltas.length));
  const final: WireResponse = {
    ...response,
    status: incomplete ? 'incomplete' : 'completed',
    completed_at: incomplete ? null : Math.floor(Date.now() / 1000),
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    output: [message],
    ...(usage ? { usage: wireUsage(usage.inputTokens, usage.outputTokens) } : {}),
  };
  res.end(
    event('response.output_text.done', { ...at, text, logprobs: [] }) +
      event('response.content_part.done', { ...at, part: message.content[0]! }) +
      event('response.output_item.done', { output_index: 0, item: message }) +
      (incomplete ? event('response.incomplete', { response: final }) : event('response.completed', { response: final })),
  );
}

const defaultUsage = (body: Record<string, unknown>, deltaCount: number) => ({
  inputTokens: Math.ceil((String(body.instructions ?? '').length + JSON.stringify(body.input ?? '').length) / 4),
  outputTokens: deltaCount,
});

