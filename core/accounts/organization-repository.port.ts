import type { AccountStatus, Organization } from './user';

export interface OrganizationRepository {
  create(input: { name: string }): Promise<Organization>;
  findById(id: number): Promise<Organization | null>;
  /** Oldest first. */
  list(): Promise<Organization[]>;
  /** Returns the updated organization, or null when absent. */
  setStatus(id: number, status: AccountStatus): Promise<Organization | null>;
  /**
   * Inside a transaction: holds the organization until commit, so membership changes in one
   * organization (role changes, removals) run one after another. A no-op for an unknown id.
   */
  lock(id: number): Promise<void>;
}
