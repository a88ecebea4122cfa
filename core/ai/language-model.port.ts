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
 * tokens the provider reports for the whole call, also when the model stopped at
 * `maxOutputTokens`. Iteration ends after it; a provider that finishes without reporting usage
 * ends iteration without one (the caller then estimates).
 *
 * Failures: a provider that cannot be reached, refuses the request (a bad key included: the
 * error's `cause` keeps the provider's answer for the logs) or fails on its side throws DomainError
 * `SERVICE_UNAVAILABLE`. Before the first event, nothing is yielded. In the middle of the stream
 * (a failure event, or a connection that drops before the provider said it was done) the deltas
 * that arrived are yielded, then it throws, never with a usage event: the caller estimates what
 * those cost. Aborting `request.signal` stops the provider call; iteration then ends, by
 * returning or by throwing, and the caller tells the two apart by the signal.
 */
export interface LanguageModel {
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
}
