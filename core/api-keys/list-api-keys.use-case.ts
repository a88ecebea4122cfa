import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import { readPage, type Page, type PageRequest } from '../shared/list-page';
import type { ApiKey } from './api-key';
import type { ApiKeysDeps } from './api-keys-deps';

/** The caller's organization's API keys, newest first, one page at a time (expired ones too). */
export class ListApiKeys {
  constructor(private readonly deps: Pick<ApiKeysDeps, 'apiKeys'>) {}

  async execute(caller: Caller, input: PageRequest): Promise<Page<ApiKey>> {
    requireRole(caller, 'org_admin');
    return readPage(input, (window) => this.deps.apiKeys.list(caller.organizationId, window));
  }
}
