import type { Subscription } from '../billing/subscription';
import type { Note } from '../notes/note';
import type { NoteOwner } from '../notes/note-repository.port';
import type { Plan } from '../plans/plan';

/**
 * Everything a copilot call reads before its checks, as stored, judged by RunCopilot. Read in one
 * go (one round trip on PostgreSQL) because the call's first byte waits on it.
 */
export interface CopilotReads {
  /** The caller's note, or null when it is not theirs or does not exist. */
  note: Note | null;
  subscription: Subscription | null;
  /** The plan sold as the subscription's product whatever its status (RunCopilot decides whether it counts); null when none. */
  productPlan: Plan | null;
  /** Null only when the plan table has lost its invariant. */
  defaultPlan: Plan | null;
  /** The organization's overage switch; false when the organization is gone. */
  organizationOverage: boolean;
  /** The deployment's overage switch. */
  systemOverage: boolean;
}

export interface CopilotReader {
  read(owner: NoteOwner, noteId: number, organizationId: number): Promise<CopilotReads>;
}
