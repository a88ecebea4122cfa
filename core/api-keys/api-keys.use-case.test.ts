import { describe, expect, it } from 'vitest';
import type { UserCaller } from '../access/caller';
import type { RoleName } from '../access/role';
import type { User } from '../accounts/user';
import { apiKeysDeps, organizationsHarness } from '../../test/builders/organizations';
import { auditActor } from '../audit/audit-actor';
import type { ApiKeysDeps } from './api-keys-deps';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';
import { CreateApiKey } from './create-api-key.use-case';
import { ListApiKeys } from './list-api-keys.use-case';
import { RevokeApiKey } from './revoke-api-key.use-case';

const HOUR = 3_600_000;

function harness() {
  const h = organizationsHarness();
  const deps: ApiKeysDeps = apiKeysDeps(h);
  const callerOf = (user: User): UserCaller => ({ kind: 'user', userId: user.id, organizationId: user.organizationId, role: user.role, sessionId: 1, mfaSatisfied: true });
  const admin = async (role: RoleName = 'org_admin', organizationId?: number) => {
    const user = await h.aUser({ role, ...(organizationId === undefined ? {} : { organizationId }) });
    return { user, caller: callerOf(user) };
  };
  return {
    ...h,
    deps,
    admin,
    create: new CreateApiKey(deps),
    list: new ListApiKeys(deps),
    revoke: new RevokeApiKey(deps),
    authenticate: new AuthenticateApiKey(deps),
  };
}

describe('API keys', () => {
  it('makes a tk_ key shown once, stores only its SHA-256, and authenticates it as the organization with its role', async () => {
    const h = harness();
    const { user, caller } = await h.admin();

    const { apiKey, key } = await h.create.execute(caller, { name: 'CI', role: 'member' });

    expect(key).toMatch(/^tk_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({ name: 'CI', role: 'member', prefix: key.slice(0, 10), createdBy: { id: user.id, email: user.email }, expiresAt: null, lastUsedAt: null });
    expect(JSON.stringify([...h.store.table('api_key').values()])).not.toContain(key);
    expect(JSON.stringify([...h.store.table('api_key').values()])).toContain(h.deps.tokenHasher.hash(key));
    await expect(h.authenticate.execute(key)).resolves.toEqual({ kind: 'api_key', apiKeyId: apiKey.id, organizationId: user.organizationId, role: 'member', mfaSatisfied: true });
  });

  it('refuses a role above the caller\'s own, and callers below org_admin', async () => {
    const h = harness();
    const { caller: member } = await h.admin('member');
    const { caller: admin } = await h.admin('org_admin');

    await expect(h.create.execute(member, { name: 'CI', role: 'readonly' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(h.create.execute({ ...admin, role: 'org_admin' }, { name: 'x', role: 'org_admin' })).resolves.toBeDefined();
    // A caller's role below the key's: an org_admin caller demoted on the fly cannot grant org_admin.
    await expect(h.create.execute({ ...admin, role: 'member' }, { name: 'x', role: 'org_admin' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });

  it('accepts an expiry from 1 hour to 1 year ahead only', async () => {
    const h = harness();
    const { caller } = await h.admin();
    const now = h.clock.now().getTime();
    const yearAhead = new Date(h.clock.now());
    yearAhead.setUTCFullYear(yearAhead.getUTCFullYear() + 1);

    for (const expiresAt of [new Date(now + HOUR - 1), new Date(now - HOUR), new Date(yearAhead.getTime() + 1)]) {
      await expect(h.create.execute(caller, { name: 'x', role: 'readonly', expiresAt })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { expiresAt: expect.any(String) } });
    }
    for (const expiresAt of [new Date(now + HOUR), yearAhead]) {
      await expect(h.create.execute(caller, { name: 'x', role: 'readonly', expiresAt })).resolves.toMatchObject({ apiKey: { expiresAt } });
    }
  });

  it('refuses malformed, unknown, expired and revoked keys, and keys of a suspended organization, alike', async () => {
    const h = harness();
    const { user, caller } = await h.admin();
    const dated = await h.create.execute(caller, { name: 'dated', role: 'readonly', expiresAt: new Date(h.clock.now().getTime() + HOUR) });
    const revoked = await h.create.execute(caller, { name: 'gone', role: 'readonly' });
    const live = await h.create.execute(caller, { name: 'live', role: 'readonly' });
    await h.revoke.execute(caller, { apiKeyId: revoked.apiKey.id });
    h.clock.advance(HOUR);

    for (const key of ['', 'tk_short', `tk_${'A'.repeat(43)}`, dated.key, revoked.key]) {
      await expect(h.authenticate.execute(key)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
    await expect(h.authenticate.execute(live.key)).resolves.toMatchObject({ apiKeyId: live.apiKey.id });
    await h.ports.organizations.setStatus(user.organizationId, 'suspended');
    await expect(h.authenticate.execute(live.key)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it("lists and revokes only the caller's organization's keys; another's id is not found", async () => {
    const h = harness();
    const { caller: acme } = await h.admin();
    const { caller: globex } = await h.admin('org_admin', (await h.ports.organizations.create({ name: 'Globex' })).id);
    const ours = await h.create.execute(acme, { name: 'ours', role: 'readonly' });
    h.clock.advance(1000);
    const newer = await h.create.execute(acme, { name: 'newer', role: 'readonly' });
    await h.create.execute(globex, { name: 'theirs', role: 'readonly' });

    const page = await h.list.execute(acme, { limit: 1 });
    expect(page.items.map((key) => key.name)).toEqual(['newer']);
    expect((await h.list.execute(acme, { limit: 5, cursor: page.nextCursor! })).items.map((key) => key.name)).toEqual(['ours']);
    await expect(h.revoke.execute(globex, { apiKeyId: ours.apiKey.id })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resource: 'api_key' } });
    await h.revoke.execute(acme, { apiKeyId: newer.apiKey.id });
    expect((await h.list.execute(acme, { limit: 5 })).items.map((key) => key.name)).toEqual(['ours']);
  });

  it('keeps working when its creator is demoted or removed; the creator then shows as null', async () => {
    const h = harness();
    const { user, caller } = await h.admin();
    const { key } = await h.create.execute(caller, { name: 'CI', role: 'org_admin' });

    await h.ports.users.updateRole(user.organizationId, user.id, 'readonly');
    await expect(h.authenticate.execute(key)).resolves.toMatchObject({ role: 'org_admin' });
    await h.ports.users.delete(user.organizationId, user.id);
    await expect(h.authenticate.execute(key)).resolves.toMatchObject({ role: 'org_admin' });
    const { caller: other } = await h.admin('org_admin', user.organizationId);
    expect((await h.list.execute(other, { limit: 5 })).items).toEqual([expect.objectContaining({ name: 'CI', createdBy: null })]);
  });

  it('writes lastUsedAt at most once a minute per key, off the request (authentication does not wait for it)', async () => {
    const h = harness();
    const { caller } = await h.admin();
    const { apiKey, key } = await h.create.execute(caller, { name: 'CI', role: 'readonly' });
    const lastUsed = async () => (await h.list.execute(caller, { limit: 5 })).items.find((item) => item.id === apiKey.id)!.lastUsedAt;

    await h.authenticate.execute(key);
    await h.deps.keyActivity.flush();
    const first = h.clock.now();
    expect(await lastUsed()).toEqual(first);
    h.clock.advance(59_000);
    await h.authenticate.execute(key);
    await h.deps.keyActivity.flush();
    expect(await lastUsed()).toEqual(first);
    h.clock.advance(1_000);
    await h.authenticate.execute(key);
    await h.deps.keyActivity.flush();
    expect(await lastUsed()).toEqual(h.clock.now());
  });

  it('records api_key.created and api_key.revoked with name and role, never the key, in the same transaction as the change', async () => {
    const h = harness();
    const { user, caller } = await h.admin();
    const { apiKey, key } = await h.create.execute(caller, { name: 'CI', role: 'member' });
    await h.revoke.execute(caller, { apiKeyId: apiKey.id });

    const events = await h.auditLog.recorded(user.organizationId);
    expect(events.map((event) => [event.action, event.actor.type, event.actor.id, event.target, event.details])).toEqual([
      ['api_key.created', 'user', user.id, { type: 'api_key', id: String(apiKey.id) }, { name: 'CI', role: 'member' }],
      ['api_key.revoked', 'user', user.id, { type: 'api_key', id: String(apiKey.id) }, { name: 'CI', role: 'member' }],
    ]);
    expect(JSON.stringify(events)).not.toContain(key);
    expect(JSON.stringify(events)).not.toContain(h.deps.tokenHasher.hash(key));
  });

  it('stores no key when its event cannot be written, and keeps a key whose revocation event fails', async () => {
    const h = harness();
    const { user, caller } = await h.admin();
    h.auditLog.failNextRecord();
    await expect(h.create.execute(caller, { name: 'lost', role: 'member' })).rejects.toThrow('audit insert failed');
    expect((await h.list.execute(caller, { limit: 5 })).items).toEqual([]);

    const { apiKey, key } = await h.create.execute(caller, { name: 'kept', role: 'member' });
    h.auditLog.failNextRecord();
    await expect(h.revoke.execute(caller, { apiKeyId: apiKey.id })).rejects.toThrow('audit insert failed');
    await expect(h.authenticate.execute(key)).resolves.toMatchObject({ apiKeyId: apiKey.id });
    // A revocation that fails (unknown id) records nothing.
    await expect(h.revoke.execute(caller, { apiKeyId: apiKey.id + 100 })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect((await h.auditLog.recorded(user.organizationId)).map((event) => event.action)).toEqual(['api_key.created']);
  });

  it('names a key as the actor of the changes it makes', () => {
    expect(auditActor({ kind: 'api_key', apiKeyId: 7, organizationId: 1, role: 'member', mfaSatisfied: true })).toEqual({ type: 'api_key', id: 7 });
  });
});
