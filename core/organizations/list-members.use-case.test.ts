import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import { ListMembers } from './list-members.use-case';

describe('ListMembers', () => {
  it("lists the caller's organization's members only, in joining order", async () => {
    const h = organizationsHarness();
    const acme = await h.anOrganization(['org_admin', 'member', 'readonly']);
    await h.anOrganization(['org_admin', 'member']);

    const members = await new ListMembers(h.ports).execute(await h.loginAs(acme.users[0]!), { limit: 100 });

    expect(members.items.map((m) => m.id)).toEqual(acme.users.map((u) => u.id));
    expect(members.nextCursor).toBeNull();
  });

  it('pages with limit and the cursor of the previous page, and ends with a null cursor', async () => {
    const h = organizationsHarness();
    const acme = await h.anOrganization(['org_admin', 'member', 'member', 'readonly', 'member']);
    const list = new ListMembers(h.ports);
    const caller = await h.loginAs(acme.users[0]!);

    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list.execute(caller, { limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((m) => m.id));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);

    expect(pages).toBe(3);
    expect(seen).toEqual(acme.users.map((u) => u.id));
    await expect(list.execute(caller, { limit: 2, cursor: 'not-a-cursor!' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('is for org_admins and above', async () => {
    const h = organizationsHarness();
    const acme = await h.anOrganization(['org_admin', 'member']);

    await expect(new ListMembers(h.ports).execute(await h.loginAs(acme.users[1]!), { limit: 100 })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });
});
