import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobRunLedger } from '../../core/jobs/job-run-ledger.port';
import type { RecurringJob } from '../../core/jobs/job';
import { recordingLogger } from '../../test/support/recording-logger';
import { InMemoryJobRunLedger } from '../in-memory/in-memory-job-run-ledger';
import { SystemClock } from '../system/system-clock';
import { InProcessScheduler } from './in-process-scheduler';

const PERIOD = 1_000;

function scheduler(ledger: JobRunLedger = new InMemoryJobRunLedger(), logger = recordingLogger()) {
  return { scheduler: new InProcessScheduler({ ledger, clock: new SystemClock(), logger }), logger };
}

function countingJob(name = 'count', run?: () => Promise<Record<string, unknown> | void>) {
  const job = { name, everyMs: PERIOD, runs: 0, run: async () => {
    job.runs += 1;
    return run?.();
  } };
  return job satisfies RecurringJob;
}

describe('InProcessScheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-21T10:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs each job once per period, at the middle of the period', async () => {
    const { scheduler: s, logger } = scheduler();
    const job = countingJob('count', async () => ({ did: 'work' }));
    await s.start([job]);

    await vi.advanceTimersByTimeAsync(PERIOD / 2 - 1);
    expect(job.runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(job.runs).toBe(1);
    await vi.advanceTimersByTimeAsync(9 * PERIOD);
    expect(job.runs).toBe(10);
    expect(logger.lines.at(-1)).toMatchObject({ level: 'info', message: 'job ran', fields: { job: 'count', did: 'work' } });
    await s.stop();
  });

  it('runs a job once per period in total when several instances share the ledger', async () => {
    const ledger = new InMemoryJobRunLedger();
    const job = countingJob();
    const instances = [scheduler(ledger).scheduler, scheduler(ledger).scheduler, scheduler(ledger).scheduler];
    await instances[0]!.start([job]);
    await vi.advanceTimersByTimeAsync(PERIOD / 3);
    await instances[1]!.start([job]);
    await vi.advanceTimersByTimeAsync(PERIOD / 3);
    await instances[2]!.start([job]);

    await vi.advanceTimersByTimeAsync(20 * PERIOD);
    expect(job.runs).toBe(21);
    await Promise.all(instances.map((s) => s.stop()));
  });

  it('logs a failing run and runs the job again the next period', async () => {
    let calls = 0;
    const job = countingJob('flaky', async () => {
      calls += 1;
      if (calls === 1) throw new Error('database hiccup');
      return { ok: true };
    });
    const { scheduler: s, logger } = scheduler();
    await s.start([job]);

    await vi.advanceTimersByTimeAsync(PERIOD / 2);
    expect(logger.lines).toEqual([
      expect.objectContaining({ level: 'error', message: expect.stringContaining('job failed'), fields: expect.objectContaining({ job: 'flaky' }) }),
    ]);
    expect((logger.lines[0]!.fields.err as Error).message).toBe('database hiccup');

    await vi.advanceTimersByTimeAsync(PERIOD);
    expect(job.runs).toBe(2);
    expect(logger.lines.at(-1)).toMatchObject({ level: 'info', fields: { job: 'flaky', ok: true } });
    await s.stop();
  });

  it('keeps the schedule when the ledger cannot be reached', async () => {
    let down = true;
    const inner = new InMemoryJobRunLedger();
    const ledger: JobRunLedger = {
      claimPeriod: async (job, periodStart) => {
        if (down) throw new Error('connection refused');
        return inner.claimPeriod(job, periodStart);
      },
    };
    const { scheduler: s, logger } = scheduler(ledger);
    const job = countingJob();
    await s.start([job]);

    await vi.advanceTimersByTimeAsync(PERIOD / 2);
    expect(job.runs).toBe(0);
    expect(logger.lines[0]).toMatchObject({ level: 'warn', fields: { job: 'count' } });
    down = false;
    await vi.advanceTimersByTimeAsync(PERIOD);
    expect(job.runs).toBe(1);
    await s.stop();
  });

  it('logs an outage once when it begins and once when it ends, whatever the number of jobs and periods', async () => {
    let down = true;
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const inner = new InMemoryJobRunLedger();
    const ledger: JobRunLedger = {
      claimPeriod: async (job, periodStart) => {
        if (down) throw outage;
        return inner.claimPeriod(job, periodStart);
      },
    };
    const logger = recordingLogger();
    const s = new InProcessScheduler({ ledger, clock: new SystemClock(), logger, isOutage: (error) => error === outage });
    const jobs = [countingJob('a'), countingJob('b', async () => {
      if (down) throw outage;
    })];
    await s.start(jobs);

    await vi.advanceTimersByTimeAsync(20 * PERIOD);
    expect(logger.lines.map((line) => [line.level, line.message])).toEqual([
      ['warn', 'jobs paused: a required service is unreachable; each job retries every period'],
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain('stack');
    down = false;
    await vi.advanceTimersByTimeAsync(3 * PERIOD);
    expect(jobs[0]!.runs).toBeGreaterThanOrEqual(3);
    expect(logger.lines.filter((line) => line.level !== 'debug').map((line) => [line.level, line.message])).toEqual([
      ['warn', 'jobs paused: a required service is unreachable; each job retries every period'],
      ['info', 'jobs resumed: the service answers again'],
    ]);
    await s.stop();
  });

  it('stop() waits for the run in progress, then nothing runs any more', async () => {
    let finish: () => void = () => undefined;
    const job = countingJob('slow', () => new Promise<void>((resolve) => (finish = resolve)));
    const { scheduler: s } = scheduler();
    await s.start([job]);
    await vi.advanceTimersByTimeAsync(PERIOD / 2);
    expect(job.runs).toBe(1);

    let stopped = false;
    const stopping = s.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
    expect(vi.getTimerCount()).toBe(0);

    await vi.advanceTimersByTimeAsync(10 * PERIOD);
    expect(job.runs).toBe(1);
  });

  it('never overlaps runs of one job: an overlong run skips periods', async () => {
    const job = countingJob('long', () => new Promise<void>((resolve) => setTimeout(resolve, 2.5 * PERIOD)));
    const { scheduler: s } = scheduler();
    await s.start([job]);

    await vi.advanceTimersByTimeAsync(PERIOD / 2);
    expect(job.runs).toBe(1);
    await vi.advanceTimersByTimeAsync(2.5 * PERIOD);
    expect(job.runs).toBe(1);
    await vi.advanceTimersByTimeAsync(PERIOD);
    expect(job.runs).toBe(2);
    const stopping = s.stop();
    await vi.advanceTimersByTimeAsync(3 * PERIOD);
    await stopping;
    expect(job.runs).toBe(2);
  });

  it('rejects a job without a positive period', async () => {
    const { scheduler: s } = scheduler();
    await expect(s.start([{ ...countingJob(), everyMs: 0 }])).rejects.toThrow(/everyMs/);
    await s.stop();
  });

  it('keeps one schedule per job name when registered again, on the latest definition', async () => {
    const { scheduler: s } = scheduler();
    const first = countingJob();
    await s.start([first]);
    await s.start([first]);
    await vi.advanceTimersByTimeAsync(5 * PERIOD);
    expect(first.runs).toBe(5);

    const replacement = countingJob();
    replacement.everyMs = 2 * PERIOD;
    await s.start([replacement]);
    await vi.advanceTimersByTimeAsync(10 * PERIOD);
    expect(first.runs).toBe(5);
    expect(replacement.runs).toBe(5);
    await s.stop();
  });
});
