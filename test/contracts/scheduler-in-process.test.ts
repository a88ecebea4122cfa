import { InMemoryJobRunLedger } from '../../adapters/in-memory/in-memory-job-run-ledger';
import { InProcessScheduler } from '../../adapters/scheduler/in-process-scheduler';
import { SystemClock } from '../../adapters/system/system-clock';
import { recordingLogger } from '../support/recording-logger';
import { describeSchedulerContract } from './scheduler.contract';

// Real timers on a short period: the contract measures runs per period as they happen.
describeSchedulerContract('in-process timers', { periodMs: 200 }, async () => {
  const scheduler = new InProcessScheduler({ ledger: new InMemoryJobRunLedger(), clock: new SystemClock(), logger: recordingLogger() });
  return { scheduler, teardown: () => scheduler.stop() };
});
