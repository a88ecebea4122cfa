/** A local user reached through an external identity: `(issuer, subject)` is the provider's stable key. */
export interface IdentityLink {
  id: number;
  userId: number;
  issuer: string;
  subject: string;
  createdAt: Date;
}

/**
 * Which provider identities sign in as which local user. One `(issuer, subject)` belongs to at
 * most one user; a user may have several. Deleting the user deletes their links.
 */
export interface IdentityLinkRepository {
  /**
   * Links the identity to the user. An `(issuer, subject)` that is already linked rejects (the
   * unique key: the caller lost a race, not an expected failure); so does an unknown user.
   */
  create(input: { userId: number; issuer: string; subject: string; createdAt: Date }): Promise<IdentityLink>;
  /** Exact, case-sensitive match on both parts, or null. */
  findBySubject(issuer: string, subject: string): Promise<IdentityLink | null>;
  /** Oldest first. */
  listByUser(userId: number): Promise<IdentityLink[]>;
}
