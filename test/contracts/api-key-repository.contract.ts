import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { UserRepository } from '../../core/accounts/user-repository.port';
import type { User } from '../../core/accounts/user';
import type { ApiKeyRepository, NewApiKey } from '../../core/api-keys/api-key-repository.port';
import { aNewUser } from './user-repository.contract';

export interface ApiKeyRepositoryHarness {
  organizations: OrganizationRepository;
  users: UserRepository;
  apiKeys: ApiKeyRepository;
  teardown(): Promise<void>;
}

const T0 = new Date('2026-11-21T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
let serial = 0;
const aNewKey = (organizationId: number, createdByUserId: number, overrides: Partial<NewApiKey> = {}): NewApiKey => {
  serial += 1;
  return {
    organizationId,
    name: `CI ${serial}`,
    role: 'member',
    prefix: `tk_abc${String(serial).padStart(4, '0')}`.slice(0, 10),
    keyHash: String(serial).padStart(64, 'a'),
    createdByUserId,
    createdAt: at(serial),
    expiresAt: null,
    ...overrides,
  };
};

/** ApiKeyRepository: one suite, run on every adapter. */
export function describeApiKeyRepositoryContract(name: string, setup: () => Promise<ApiKeyRepositoryHarness>): void {
  describe(`api key repository contract (${name})`, () => {
    let h: ApiKeyRepositoryHarness;
    let acme: number;
    let globex: number;
    let admin: User;
    let rival: User;

    beforeEach(async () => {
      h = await setup();
      acme = (await h.organizations.create({ name: 'Acme' })).id;
      globex = (await h.organizations.create({ name: 'Globex' })).id;
      admin = await h.users.create(aNewUser(acme, { role: 'org_admin' }));
      rival = await h.users.create(aNewUser(globex, { role: 'org_admin' }));
    });
    afterEach(() => h.teardown());

    it('creates a key with its creator and finds it by hash, with its organization state', async () => {
      const input = aNewKey(acme, admin.id, { role: 'org_admin', expiresAt: at(86_400) });
      const key = await h.apiKeys.create(input);

      expect(key).toEqual({
        id: expect.any(Number),
        organizationId: acme,
        name: input.name,
        role: 'org_admin',
        prefix: input.prefix,
        createdAt: input.createdAt,
        createdBy: { id: admin.id, email: admin.email },
        expiresAt: at(86_400),
        lastUsedAt: null,
      });
      expect(await h.apiKeys.findByHash(input.keyHash)).toEqual({
        apiKeyId: key.id,
        organizationId: acme,
        role: 'org_admin',
        expiresAt: at(86_400),
        lastUsedAt: null,
        organizationStatus: 'active',
      });
      expect(await h.apiKeys.findByHash('f'.repeat(64))).toBeNull();
      await h.organizations.setStatus(acme, 'suspended');
      expect(await h.apiKeys.findByHash(input.keyHash)).toMatchObject({ organizationStatus: 'suspended' });
    });

    it("lists one organization's keys newest first, paged by keyset, never another's", async () => {
      const keys = [];
      for (let i = 0; i < 5; i += 1) keys.push(await h.apiKeys.create(aNewKey(acme, admin.id)));
      await h.apiKeys.create(aNewKey(globex, rival.id));
      const newestFirst = [...keys].reverse().map((key) => key.id);

      expect((await h.apiKeys.list(acme)).map((key) => key.id)).toEqual(newestFirst);
      const first = await h.apiKeys.list(acme, { limit: 2 });
      expect(first.map((key) => key.id)).toEqual(newestFirst.slice(0, 2));
      const after = first[1]!;
      expect((await h.apiKeys.list(acme, { limit: 10, after: { createdAt: after.createdAt, id: after.id } })).map((key) => key.id)).toEqual(newestFirst.slice(2));
    });

    it("revokes only its own organization's key, once", async () => {
      const input = aNewKey(acme, admin.id);
      const key = await h.apiKeys.create(input);

      expect(await h.apiKeys.revoke(globex, key.id)).toBeNull();
      expect(await h.apiKeys.findByHash(input.keyHash)).not.toBeNull();
      expect(await h.apiKeys.revoke(acme, key.id)).toEqual({ id: key.id, name: input.name, role: 'member' });
      expect(await h.apiKeys.revoke(acme, key.id)).toBeNull();
      expect(await h.apiKeys.findByHash(input.keyHash)).toBeNull();
      expect(await h.apiKeys.list(acme)).toEqual([]);
    });

    it("finds its own organization's key by id, expired too, until it is revoked", async () => {
      const key = await h.apiKeys.create(aNewKey(acme, admin.id, { role: 'org_admin', expiresAt: at(-1) }));

      expect(await h.apiKeys.findById(acme, key.id)).toEqual(key);
      expect(await h.apiKeys.findById(globex, key.id)).toBeNull();
      await h.apiKeys.revoke(acme, key.id);
      expect(await h.apiKeys.findById(acme, key.id)).toBeNull();
    });

    it('keeps a key whose creator is deleted, with no creator', async () => {
      const input = aNewKey(acme, admin.id);
      await h.apiKeys.create(input);

      expect(await h.users.delete(acme, admin.id)).toBe(true);
      expect(await h.apiKeys.list(acme)).toEqual([expect.objectContaining({ createdBy: null })]);
      expect(await h.apiKeys.findByHash(input.keyHash)).not.toBeNull();
    });

    it('records a use only when the stored one is older than the cutoff (or none yet)', async () => {
      const input = aNewKey(acme, admin.id);
      const key = await h.apiKeys.create(input);

      expect(await h.apiKeys.recordUse(key.id, at(1000), at(940))).toBe(true);
      expect(await h.apiKeys.recordUse(key.id, at(1030), at(970))).toBe(false);
      expect((await h.apiKeys.findByHash(input.keyHash))!.lastUsedAt).toEqual(at(1000));
      expect(await h.apiKeys.recordUse(key.id, at(1060), at(1001))).toBe(true);
      expect((await h.apiKeys.list(acme))[0]!.lastUsedAt).toEqual(at(1060));
    });
  });
}
