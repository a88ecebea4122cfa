import type { AccountStatus, Organization } from './user';

export interface OrganizationRepository {
  create(input: { name: string }): Promise<Organization>;
  findById(id: number): Promise<Organization | null>;
  /** Oldest first. */
  list(): Promise<Organization[]>;
  /** Returns the updated organization, or null when absent. */
  setStatus(id: number, status: AccountStatus): Promise<Organization | null>;
}
