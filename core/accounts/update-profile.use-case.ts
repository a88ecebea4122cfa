import { DomainError } from '../shared/domain-error';
import type { AccountsDeps } from './accounts-deps';
import type { UserCaller } from '../access/caller';
import type { CurrentUser } from './get-current-user.use-case';
import type { NameChange } from './user-repository.port';

/** What a person's name field may hold: one line of at most this many characters, trimmed. */
export const PERSON_NAME_MAX = 100;

const CONTROL_CHARACTER = /[\u0000-\u001F\u007F]/;

/**
 * The caller edits their own first and last name: a given key is set (`null` clears it), an
 * absent one is left alone, and at least one must be given. A name is trimmed, 1..100 characters,
 * and one line of text: control characters are refused, since a name is shown in emails and
 * pages where a line break would let it pose as something else. Answers what `/users/me` does.
 */
export class UpdateProfile {
  constructor(private readonly deps: Pick<AccountsDeps, 'users' | 'organizations'>) {}

  async execute(caller: UserCaller, change: NameChange): Promise<CurrentUser> {
    const clean = validated(change);
    const user = await this.deps.users.updateName(caller.userId, clean);
    const organization = user ? await this.deps.organizations.findById(user.organizationId) : null;
    if (!user || !organization) throw new DomainError('UNAUTHORIZED', 'Authentication required');
    return { user, organization };
  }
}

function validated(change: NameChange): NameChange {
  const clean: NameChange = {};
  const problems: Record<string, string> = {};
  for (const field of ['firstName', 'lastName'] as const) {
    const value = change[field];
    if (value === undefined) continue;
    const name = value === null ? null : value.trim();
    const problem = name === null ? undefined : nameProblem(name);
    if (problem) problems[field] = problem;
    else clean[field] = name;
  }
  if (Object.keys(problems).length > 0) throw new DomainError('VALIDATION_ERROR', 'The request is invalid', problems);
  if (Object.keys(clean).length === 0) throw new DomainError('VALIDATION_ERROR', 'Give first_name, last_name or both', { body: 'Give first_name, last_name or both' });
  return clean;
}

function nameProblem(name: string): string | undefined {
  if (name === '') return 'Must not be empty';
  if ([...name].length > PERSON_NAME_MAX) return `Must be at most ${PERSON_NAME_MAX} characters`;
  if (CONTROL_CHARACTER.test(name)) return 'Must not contain control characters';
  return undefined;
}
