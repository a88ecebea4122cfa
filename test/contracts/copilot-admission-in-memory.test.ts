import { copilotAdmissionContract } from './copilot-admission.contract';
import { inMemoryAdmissionHarness } from './copilot-admission-harness';

copilotAdmissionContract('in-memory', async () => inMemoryAdmissionHarness());
