import type { RoleName } from '../access/role';

export type AccountStatus = 'active' | 'suspended';

export interface User {
  id: number;
  organizationId: number;
  /** Trimmed and lower-cased. */
  email: string;
  /** Null for accounts created through the identity provider. */
  passwordHash: string | null;
  firstName: string | null;
  lastName: string | null;
  role: RoleName;
  emailVerified: boolean;
  status: AccountStatus;
  /**
   * Counts the changes of the password (set, replaced or removed). A session records the version
   * it was created under and dies when the user's moves on, so a login that checked the old
   * password cannot outlive a reset that happened while it was hashing.
   */
  credentialsVersion: number;
  createdAt: Date;
}

export interface Organization {
  id: number;
  name: string;
  status: AccountStatus;
  createdAt: Date;
}

/** Per-organization switches an org_admin controls; both off by default. */
export interface OrganizationSettings {
  /** Members may go over their plan's AI allowance, billed as overage. */
  overageEnabled: boolean;
  /** Members without a second factor are held to their account, sessions and MFA setup. */
  requireMfa: boolean;
}

/** Emails are trimmed and lower-cased everywhere before storage and comparison, so one mailbox is one account. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
