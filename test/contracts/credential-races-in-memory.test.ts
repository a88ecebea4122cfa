import { accountsHarness } from '../builders/accounts';
import { GatedPasswordHasher } from '../builders/gated-hasher';
import { describeCredentialRaces } from './credential-races.contract';

describeCredentialRaces('in-memory', async () => {
  const hasher = new GatedPasswordHasher();
  const h = accountsHarness({}, hasher);
  return { deps: h.deps, hasher, resetToken: (to) => h.tokenFromEmail(to, '/reset-password'), teardown: async () => undefined };
});
