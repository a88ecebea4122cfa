import { newTestRunId, removeTestTemplates, RUN_ID_VARIABLE } from './test-templates';

/**
 * Runs once per `vitest run`, in the main process, before any worker starts: names the run, so
 * that its workers (which inherit this environment) share one migrated template database and one
 * PGlite template (test/support/test-templates.ts), and removes both at the end.
 */
export function setup(): () => Promise<void> {
  const runId = newTestRunId();
  process.env[RUN_ID_VARIABLE] = runId;
  return () => removeTestTemplates(runId);
}
