/**
 * Runs `work` atomically: every repository call made inside it (on any port backed by the same
 * store) commits together or not at all. Calls nest: an inner `transaction` joins the outer one.
 * Keep the work short and free of network calls to third parties.
 */
export interface UnitOfWork {
  transaction<T>(work: () => Promise<T>): Promise<T>;
}
