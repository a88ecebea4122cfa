/**
 * An insert that holds a limit: it creates the record only while the organization has fewer than
 * `limit` of them (-1: no limit), and answers null otherwise. The repository makes check and
 * insert one atomic step (`createWithinLimit` on its port), so with one slot left N concurrent
 * creates give exactly one record.
 */
export type LimitedCreate<T> = (limit: number) => Promise<T | null>;

/**
 * What an organization may do and how much of it is left, asked by the contexts that create
 * limited records without knowing how the limit is computed (the plans context implements it
 * from the organization's effective plan). `Feature` names the limits a caller may ask about.
 */
export interface Entitlements<Feature extends string> {
  /**
   * Runs `create` under the organization's limit for `feature`; QUOTA_EXCEEDED
   * `{feature_key, limit}`, and nothing stored, when the limit is reached. Deleting a record
   * frees its slot, since the limit counts live records.
   */
  take<T>(organizationId: number, feature: Feature, create: LimitedCreate<T>): Promise<T>;
}
