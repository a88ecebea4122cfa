import { describe, expect, it } from 'vitest';
import { accountsHarness } from '../../test/builders/accounts';
import type { UserCaller } from '../access/caller';
import { UpdateProfile } from './update-profile.use-case';

async function aCaller() {
  const h = accountsHarness();
  const user = await h.aUser({ role: 'readonly' });
  const caller: UserCaller = { userId: user.id, organizationId: user.organizationId, role: user.role, sessionId: 1, mfaSatisfied: true, kind: 'user' as const };
  return { h, user, caller, update: new UpdateProfile(h.ports) };
}

describe('UpdateProfile', () => {
  it('sets the names given, trimmed, leaves the others, and answers the current user with the organization', async () => {
    const { h, user, caller, update } = await aCaller();

    const first = await update.execute(caller, { firstName: '  Ada ', lastName: 'Lovelace' });
    const second = await update.execute(caller, { lastName: null });

    expect(first.user).toMatchObject({ id: user.id, firstName: 'Ada', lastName: 'Lovelace' });
    expect(second.user).toMatchObject({ firstName: 'Ada', lastName: null });
    expect(second.organization.id).toBe(user.organizationId);
    expect(await h.ports.users.findById(user.id)).toMatchObject({ firstName: 'Ada', lastName: null });
  });

  it.each([
    ['an empty name', { firstName: '   ' }, { firstName: 'Must not be empty' }],
    ['a name over 100 characters', { lastName: '🚀'.repeat(101) }, { lastName: 'Must be at most 100 characters' }],
    ['a line break', { firstName: 'Ada\nClick https://evil.example' }, { firstName: 'Must not contain control characters' }],
    ['a DEL character', { lastName: 'Love\u007Flace' }, { lastName: 'Must not contain control characters' }],
    ['no name at all', {}, { body: 'Give first_name, last_name or both' }],
  ])('refuses %s with VALIDATION_ERROR and changes nothing', async (_label, change, details) => {
    const { h, user, caller, update } = await aCaller();

    await expect(update.execute(caller, change)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details });
    expect(await h.ports.users.findById(user.id)).toEqual(user);
  });

  it('accepts 100 characters counted as code points (an emoji is one)', async () => {
    const { caller, update } = await aCaller();
    await expect(update.execute(caller, { firstName: '🚀'.repeat(100) })).resolves.toMatchObject({ user: { firstName: '🚀'.repeat(100) } });
  });

  it('answers UNAUTHORIZED when the user is gone', async () => {
    const { h, user, caller, update } = await aCaller();
    await h.ports.users.delete(user.organizationId, user.id);
    await expect(update.execute(caller, { firstName: 'Ghost' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
