// Kept for the imports that found the fake clock here; the one implementation is in test/support.
export { FakeClock } from '../support/fake-clock';
