import type { RoleName } from './role';

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
  createdAt: Date;
}

export interface Organization {
  id: number;
  name: string;
  status: AccountStatus;
  createdAt: Date;
}

/** Emails are trimmed and lower-cased everywhere before storage and comparison, so one mailbox is one account. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
