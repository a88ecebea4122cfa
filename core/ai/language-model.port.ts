/** What the copilot sends to a model: instructions and input are plain text. */
export interface ModelRequest {
  model: string;
  /** The system part: what to do with the input. */
  instructions: string;
  /** The user part: the note. */
  input: string;
  /** The most the model may write; the capacity reserved for the call covers it. */
  maxOutputTokens: number;
  /** Aborting it ends the provider call (the client left, or the call ran too long). */
  signal: AbortSignal;
}

/** Text as the model writes it, then, when the provider reports it, what the call used. */
export type ModelEvent = { type: 'delta'; text: string } | { type: 'usage'; inputTokens: number; outputTokens: number };

/**
 * A provider-neutral streaming text model.
 *
 * `stream` yields `delta` events as the provider sends them and, last, one `usage` event with the
 * tokens the provider reports for the whole call. Iteration ends after it; a provider whose stream
 * stops early ends iteration without one (the caller then estimates).
 *
 * Failures: a provider that cannot be reached, refuses the request or fails on its side throws
 * DomainError `SERVICE_UNAVAILABLE`, whether before the first event or in the middle of the
 * stream. Aborting `request.signal` stops the provider call; iteration then ends, by returning or
 * by throwing, and the caller tells the two apart by the signal.
 */
export interface LanguageModel {
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
}
