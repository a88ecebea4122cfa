/** A user's private note inside their organization. */
export interface Note {
  id: number;
  /** Never returned by the API. */
  organizationId: number;
  /** The author, the only user who sees and changes it; never returned by the API. */
  userId: number;
  title: string;
  content: string;
  createdAt: Date;
  updatedAt: Date;
}
