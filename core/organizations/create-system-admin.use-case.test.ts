import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { sessionLogin } from '../../test/builders/accounts';
import { CreateSystemAdmin } from './create-system-admin.use-case';

describe('CreateSystemAdmin', () => {
  it('creates a verified sys_admin in a new "System" organization of its own', async () => {
    const h = organizationsHarness();
    await h.anOrganization(['org_admin'], 'System'); // a tenant may pick the same name: never reused

    const result = await new CreateSystemAdmin(h.orgPorts).execute({ email: ' Root@Example.com ', password: 'password-123' });

    expect(result).toEqual({ outcome: 'created', userId: expect.any(Number), email: 'root@example.com' });
    const user = await h.ports.users.findById(result.userId);
    expect(user).toMatchObject({ role: 'sys_admin', emailVerified: true });
    const organization = await h.ports.organizations.findById(user!.organizationId);
    expect(organization).toMatchObject({ name: 'System', status: 'active' });
    expect(await h.ports.users.listByOrganization(organization!.id)).toHaveLength(1);
    await expect(sessionLogin(h).execute({ email: 'root@example.com', password: 'password-123' })).resolves.toMatchObject({
      userId: result.userId,
    });
  });

  it('is idempotent for an existing sys_admin and leaves the password alone', async () => {
    const h = organizationsHarness();
    const create = new CreateSystemAdmin(h.orgPorts);
    const first = await create.execute({ email: 'root@example.com', password: 'password-123' });

    const again = await create.execute({ email: 'ROOT@example.com', password: 'another-password' });

    expect(again).toEqual({ outcome: 'exists', userId: first.userId, email: 'root@example.com' });
    expect(await h.ports.organizations.list()).toHaveLength(1);
    expect((await h.ports.users.findById(first.userId))?.passwordHash).toBe(await h.ports.passwordHasher.hash('password-123'));
  });

  it('refuses an address that belongs to a user who is not a sys_admin, without promoting them', async () => {
    const h = organizationsHarness();
    const member = await h.aUser({ email: 'someone@example.com', role: 'org_admin' });

    await expect(new CreateSystemAdmin(h.orgPorts).execute({ email: 'someone@example.com', password: 'password-123' })).rejects.toMatchObject({
      code: 'EMAIL_ALREADY_EXISTS',
      message: expect.stringContaining('org_admin'),
    });
    expect((await h.ports.users.findById(member.id))?.role).toBe('org_admin');
  });

  it('enforces the password policy with a message a terminal user can act on', async () => {
    const h = organizationsHarness();

    await expect(new CreateSystemAdmin(h.orgPorts).execute({ email: 'root@example.com', password: 'short' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'The password must be 8 to 64 characters',
    });
  });
});
