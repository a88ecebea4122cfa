import { describe, expect, it } from 'vitest';
import { JOB_NAMES, jobPeriods, recurringJobs, type JobUseCases } from './jobs';

const returning = (value: number) => ({ execute: async () => value });

describe('recurringJobs', () => {
  it('the session prune job also prunes audit events past their retention, and reports how many', async () => {
    const useCases = {
      pruneExpiredSessions: returning(1),
      pruneExpiredChallenges: returning(2),
      prunePasskeyChallenges: returning(3),
      pruneAuditEvents: returning(4),
      deliverDueEmails: { execute: async () => ({ sent: 0, retried: 0, dead: 0 }) },
      pruneSentEmails: returning(0),
      releaseExpiredReservations: { execute: async () => ({ released: 0 }) },
      reportOverage: null,
    } as unknown as JobUseCases;
    const jobs = recurringJobs(useCases, jobPeriods({ sessionPruneIntervalSeconds: 60 }, 'in-process'));
    const prune = jobs.find((job) => job.name === JOB_NAMES.pruneSessions)!;
    expect(await prune.run()).toEqual({ pruned_sessions: 1, pruned_mfa_challenges: 2, pruned_passkey_challenges: 3, pruned_audit_events: 4 });
  });
});
