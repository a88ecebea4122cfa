import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { AccountStatus, Organization, OrganizationSettings } from '../../core/accounts/user';
import { applyWindow, byPosition, type ListWindow } from '../../core/shared/list-page';
import { toOrganization } from '../postgres/account-rows';
import type { InMemoryStore, OrganizationRow } from './in-memory-store';

const settingsOf = (row: OrganizationRow): OrganizationSettings => ({ overageEnabled: row.overage_enabled, requireMfa: row.require_mfa });

export class InMemoryOrganizationRepository implements OrganizationRepository {
  constructor(private readonly store: InMemoryStore) {}

  create(input: { name: string }): Promise<Organization> {
    return this.store.unitOfWork.exclusive(() => {
      const now = this.store.now();
      const row: OrganizationRow = {
        id: this.store.nextId('organization'),
        name: input.name,
        status: 'active',
        overage_enabled: false,
        require_mfa: false,
        created_at: now,
        updated_at: now,
      };
      this.store.organizations.set(row.id, row);
      return toOrganization(row);
    });
  }

  findById(id: number): Promise<Organization | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.organizations.get(id);
      return row ? toOrganization(row) : null;
    });
  }

  list(window?: ListWindow): Promise<Organization[]> {
    // As in the SQL adapter: creation time, then id for organizations created at the same instant.
    return this.store.unitOfWork.exclusive(() => applyWindow([...this.store.organizations.values()].map(toOrganization).sort(byPosition), window));
  }

  async lock(_id: number): Promise<void> {
    // The unit of work already runs one transaction at a time: taking its lock is enough.
    await this.store.unitOfWork.exclusive(() => undefined);
  }

  setStatus(id: number, status: AccountStatus): Promise<Organization | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.organizations.get(id);
      if (!row) return null;
      row.status = status;
      row.updated_at = this.store.now();
      return toOrganization(row);
    });
  }

  findSettings(id: number): Promise<OrganizationSettings | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.organizations.get(id);
      return row ? settingsOf(row) : null;
    });
  }

  updateSettings(id: number, changes: Partial<OrganizationSettings>): Promise<OrganizationSettings | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.organizations.get(id);
      if (!row) return null;
      if (changes.overageEnabled !== undefined) row.overage_enabled = changes.overageEnabled;
      if (changes.requireMfa !== undefined) row.require_mfa = changes.requireMfa;
      row.updated_at = this.store.now();
      return settingsOf(row);
    });
  }
}
