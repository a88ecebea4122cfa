/** A sample organization-owned record: the reference slice other features copy. */
export interface Project {
  id: number;
  /** Owning organization, taken from the creator's session; never returned by the API. */
  organizationId: number;
  /** Creating user; null when an organization API key created it (a key is nobody's user). Never returned by the API. */
  userId: number | null;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}
