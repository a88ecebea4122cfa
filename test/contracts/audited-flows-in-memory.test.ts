import { Faults, memoryAuditWorld } from '../builders/audited-flows';
import { describeAuditedFlowTransactions } from './audited-flows.contract';

// In memory an event that cannot be written is the audit log refusing the insert, and a change that
// cannot commit is the transaction failing after all its work ran; the snapshot is the whole store.
describeAuditedFlowTransactions('in-memory', async () => {
  const faults = new Faults();
  const world = memoryAuditWorld(faults);
  const store = world.memory!.store;
  return {
    world,
    memory: true,
    faults: {
      failEvent: async () => void (faults.failEvent = true),
      failChange: async () => void (faults.failCommit = true),
      heal: async () => {
        faults.failEvent = false;
        faults.failCommit = false;
      },
      snapshot: async () => store.snapshot(),
    },
  };
});
