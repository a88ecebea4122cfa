import type { ListWindow } from '../shared/list-page';
import type { Note } from './note';

export interface NewNote {
  title: string;
  content: string;
  /** From the Clock; also the initial `updatedAt`. */
  createdAt: Date;
}

/** `undefined` leaves a field as stored; `updatedAt` is always written. */
export interface NotePatch {
  title?: string;
  content?: string;
  updatedAt: Date;
}

/** Whose notes a call addresses: a user sees only their own, inside their organization. */
export interface NoteOwner {
  organizationId: number;
  userId: number;
}

/**
 * Notes, each owned by one user of one organization. Every method but the count is scoped to an
 * owner: another user's or another organization's note behaves exactly like a missing one
 * (null / false). Deleting a user or an organization deletes their notes.
 */
export interface NoteRepository {
  /**
   * Creates the note only while the organization holds fewer than `limit` notes (-1: no limit),
   * checked and inserted atomically: with one slot left, of N concurrent calls exactly one
   * creates. Null when the organization is at or above its limit; nothing is stored then.
   */
  createWithinLimit(owner: NoteOwner, note: NewNote, limit: number): Promise<Note | null>;
  /**
   * Newest first: `createdAt` descending, then `id` descending. At most `window.limit` notes (all
   * when omitted), strictly after `window.after` in that order.
   */
  list(owner: NoteOwner, window?: ListWindow): Promise<Note[]>;
  findById(owner: NoteOwner, id: number): Promise<Note | null>;
  /** Returns the updated note, or null when the owner has no such note. */
  update(owner: NoteOwner, id: number, patch: NotePatch): Promise<Note | null>;
  /** Returns whether a note was deleted. */
  delete(owner: NoteOwner, id: number): Promise<boolean>;
  /** Every note of the organization, whoever wrote it: what `max_notes` counts. */
  countByOrganization(organizationId: number): Promise<number>;
}
