import { describe, expect, it } from 'vitest';
import { accountsHarness } from '../../test/builders/accounts';
import { Signup } from './signup.use-case';
import { SignupOrganization } from './signup-organization.use-case';

describe('Signup', () => {
  it('creates a personal organization with the user as unverified org_admin and queues a verification email', async () => {
    const h = accountsHarness();
    const { userId } = await new Signup(h.deps).execute({ email: '  Alice@Example.COM ', password: 'correct horse', firstName: 'Alice' });
    const user = await h.ports.users.findById(userId);
    expect(user).toMatchObject({ email: 'alice@example.com', role: 'org_admin', emailVerified: false, firstName: 'Alice' });
    expect(user!.passwordHash).toBe('plain:correct horse');
    expect((await h.ports.organizations.findById(user!.organizationId))?.name).toBe("Alice's organization");
    const [email] = await h.outbox.pending();
    expect(email).toMatchObject({ to: 'alice@example.com', tag: 'verify-email' });
    expect(email!.text).toContain('https://app.example.com/verify-email?token=');
  });

  it('names the organization on signup-org', async () => {
    const h = accountsHarness();
    const { userId } = await new SignupOrganization(h.deps).execute({
      email: 'bob@example.com',
      password: 'correct horse',
      organizationName: '  Acme  ',
    });
    const user = await h.ports.users.findById(userId);
    expect((await h.ports.organizations.findById(user!.organizationId))?.name).toBe('Acme');
  });

  it('refuses a taken email with EMAIL_ALREADY_EXISTS and leaves no organization or email behind', async () => {
    const h = accountsHarness();
    const signup = new Signup(h.deps);
    await signup.execute({ email: 'a@example.com', password: 'correct horse' });
    await expect(signup.execute({ email: 'A@example.com', password: 'other horse' })).rejects.toMatchObject({ code: 'EMAIL_ALREADY_EXISTS' });
    expect(await h.ports.organizations.list()).toHaveLength(1);
    expect(await h.outbox.pending()).toHaveLength(1);
  });

  it('enforces the password policy', async () => {
    const h = accountsHarness();
    await expect(new Signup(h.deps).execute({ email: 'a@example.com', password: 'short' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { password: expect.any(String) },
    });
    expect(await h.ports.users.findByEmail('a@example.com')).toBeNull();
  });

  it('is closed in B2B mode (SIGNUP_CLOSED)', async () => {
    const h = accountsHarness({ mode: 'b2b' });
    await expect(new Signup(h.deps).execute({ email: 'a@example.com', password: 'correct horse' })).rejects.toMatchObject({ code: 'SIGNUP_CLOSED' });
    await expect(
      new SignupOrganization(h.deps).execute({ email: 'a@example.com', password: 'correct horse', organizationName: 'X' }),
    ).rejects.toMatchObject({ code: 'SIGNUP_CLOSED' });
  });

  it('rolls back the organization and user when queuing the email fails', async () => {
    const h = accountsHarness();
    h.deps.outbox = { enqueue: async () => Promise.reject(new Error('outbox down')) };
    await expect(new Signup(h.deps).execute({ email: 'a@example.com', password: 'correct horse' })).rejects.toThrow('outbox down');
    expect(await h.ports.users.findByEmail('a@example.com')).toBeNull();
    expect(await h.ports.organizations.list()).toHaveLength(0);
  });
});
