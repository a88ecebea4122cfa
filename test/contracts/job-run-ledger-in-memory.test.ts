import { InMemoryJobRunLedger } from '../../adapters/in-memory/in-memory-job-run-ledger';
import { describeJobRunLedgerContract } from './job-run-ledger.contract';

describeJobRunLedgerContract('in-memory', async () => new InMemoryJobRunLedger());
