import { InMemoryIdentityLinkRepository } from '../../adapters/in-memory/in-memory-identity-link-repository';
import { InMemoryIdpLoginFlowStore } from '../../adapters/in-memory/in-memory-idp-login-flow-store';
import { InMemoryOrganizationRepository } from '../../adapters/in-memory/in-memory-organization-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemoryUserRepository } from '../../adapters/in-memory/in-memory-user-repository';
import { describeIdentityLinkRepositoryContract } from './identity-link-repository.contract';
import { describeIdpLoginFlowStoreContract } from './idp-login-flow-store.contract';

const setup = async () => {
  const store = new InMemoryStore();
  return {
    organizations: new InMemoryOrganizationRepository(store),
    users: new InMemoryUserRepository(store),
    links: new InMemoryIdentityLinkRepository(store),
    flows: new InMemoryIdpLoginFlowStore(store),
    unitOfWork: store.unitOfWork,
    teardown: async () => undefined,
  };
};

describeIdentityLinkRepositoryContract('in-memory', setup);
describeIdpLoginFlowStoreContract('in-memory', setup);
