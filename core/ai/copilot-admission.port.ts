import type { Note } from '../notes/note';
import type { NoteOwner } from '../notes/note-repository.port';
import type { Reservation } from './ai-capacity.port';
import type { ModelPrice } from './model-price.port';
import type { CopilotFeature } from './usage-record';

/** Who asks for a copilot call on which note, and what to reserve for it when it passes. */
export interface AdmissionRequest {
  owner: NoteOwner;
  noteId: number;
  feature: CopilotFeature;
  /** The model every call uses; the reservation is made for it. */
  model: string;
  /** A model is configured at all: without one the call is refused as `ai_disabled`, after the note check. */
  aiConfigured: boolean;
  /**
   * The characters of the prompt besides the note's title and content (`promptCharacters` in
   * copilot-prompt.ts): the input estimate is `noteInputEstimate` of these and the note.
   */
  promptCharacters: number;
  createdAt: Date;
  /** When the reservation, unsettled, is presumed abandoned and released. */
  expiresAt: Date;
}

/** The first check that failed, or the note and the tokens held for the call. */
export type Admission =
  | { outcome: 'note_not_found' }
  | { outcome: 'ai_disabled' }
  | { outcome: 'quota_exceeded'; tokenLimit: number }
  | {
      outcome: 'reserved';
      note: Pick<Note, 'title' | 'content'>;
      reservation: Reservation;
      /** The model's price, for the settlement (read with the rest); null when none is on record. */
      price: ModelPrice | null;
    };

/**
 * A copilot call's checks and its reservation, as one step: the call's first byte waits on it,
 * so an adapter does it in as few round trips as it can (PostgreSQL: one). Whatever else the call
 * needs from the store, the model's price, comes with it. The checks, in order,
 * each judged only when the ones before it passed:
 *
 * 1. the note is the owner's (`note_not_found` otherwise: missing and someone else's look alike);
 * 2. a model is configured and the organization's effective plan (`selectEffectivePlan`: the
 *    subscribed plan while the subscription counts, else the default) enables AI (`ai_disabled`);
 * 3. the organization's capacity holds the call: `AiCapacity.reserve` with the effective plan's
 *    `token_limit` and usage period, the input estimate, and overage allowed when both the
 *    organization's and the deployment's overage switches are on (`quota_exceeded`, with the
 *    plan's `token_limit`, and nothing held).
 *
 * The reservation keeps every guarantee of `AiCapacity.reserve`: it is decided under the
 * organization's lock, so concurrent calls never together hold more than the capacity.
 */
export interface CopilotAdmission {
  admit(request: AdmissionRequest): Promise<Admission>;
}
