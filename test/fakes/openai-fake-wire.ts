import { randomBytes } from 'node:crypto';
import type { Response, ResponseOutputMessage, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';

/**
 * The JSON OpenAI's Responses API puts on the wire, typed with the SDK's own declarations so that
 * a field the fake forgets or misspells fails the typecheck rather than a test far away.
 */

/** A response object as sent; `output_text` is a convenience the SDK adds on its side. */
export type WireResponse = Omit<Response, 'output_text'>;

export type WireEventType = ResponseStreamEvent['type'];
type OnTheWire<E> = E extends { response: Response } ? Omit<E, 'response'> & { response: WireResponse } : E;
/** An event's data less what `sseEvent` adds (its type and sequence number). */
export type WireEvent<T extends WireEventType> = Omit<OnTheWire<Extract<ResponseStreamEvent, { type: T }>>, 'type' | 'sequence_number'>;

/** One SSE record: `event:` names the type, `data:` repeats it with the running sequence number. */
export function sseEvent<T extends WireEventType>(type: T, data: WireEvent<T>, sequenceNumber: number): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: sequenceNumber })}\n\n`;
}

/** The response as `response.created` announces it: echoes the request, no output yet. */
export function responseObject(body: Record<string, unknown>, createdAt: number): WireResponse {
  return {
    id: `resp_${randomBytes(24).toString('hex')}`,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    background: false,
    access_programs: null,
    error: null,
    incomplete_details: null,
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
    max_output_tokens: typeof body.max_output_tokens === 'number' ? body.max_output_tokens : null,
    model: String(body.model),
    output: [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: 'auto',
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    metadata: {},
  };
}

export function outputMessage(id: string, text: string, status: ResponseOutputMessage['status']): ResponseOutputMessage {
  return { id, type: 'message', status, role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text }] };
}

export function wireUsage(inputTokens: number, outputTokens: number): ResponseUsage {
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  };
}

/** OpenAI's error body: `{error: {message, type, param, code}}`. */
export const errorBody = (message: string, type: string, code: string | null) => ({ error: { message, type, param: null, code } });
