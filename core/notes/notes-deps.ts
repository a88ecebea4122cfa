import type { Entitlements } from '../access/entitlements.port';
import type { Clock } from '../shared/clock.port';
import type { NoteRepository } from './note-repository.port';

/** What a notes use case is built from; each takes the `Pick` it needs as its one `deps`. */
export interface NotesDeps {
  notes: NoteRepository;
  /** Applies the organization's `max_notes` to creates. */
  quota: Entitlements<'max_notes'>;
  clock: Clock;
}
