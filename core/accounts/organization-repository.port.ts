import type { ListWindow } from '../shared/list-page';
import type { AccountStatus, Organization, OrganizationSettings } from './user';

export interface OrganizationRepository {
  create(input: { name: string }): Promise<Organization>;
  findById(id: number): Promise<Organization | null>;
  /** Oldest first, (createdAt, id) ascending; `window` pages it. */
  list(window?: ListWindow): Promise<Organization[]>;
  /** Returns the updated organization, or null when absent. */
  setStatus(id: number, status: AccountStatus): Promise<Organization | null>;
  /**
   * Inside a transaction: holds the organization until commit, so membership changes in one
   * organization (role changes, removals) run one after another. A no-op for an unknown id.
   */
  lock(id: number): Promise<void>;
  /** The organization's settings, or null when it does not exist. */
  findSettings(id: number): Promise<OrganizationSettings | null>;
  /** Applies the given keys only; returns the settings after, or null when absent. */
  updateSettings(id: number, changes: Partial<OrganizationSettings>): Promise<OrganizationSettings | null>;
}
