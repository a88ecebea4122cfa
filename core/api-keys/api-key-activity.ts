import type { Logger } from '../shared/logger.port';
import { ThrottledActivity } from '../shared/throttled-activity';
import type { ApiKeyRepository } from './api-key-repository.port';
import { API_KEY_ACTIVITY_INTERVAL_MS } from './authenticate-api-key.use-case';

/** Keeps keys' `lastUsedAt` current, at most one write per key per minute, off the request's critical path. */
export class ApiKeyActivity extends ThrottledActivity {
  constructor(ports: { apiKeys: Pick<ApiKeyRepository, 'recordUse'>; logger: Logger }, intervalMs = API_KEY_ACTIVITY_INTERVAL_MS) {
    super({ record: (id, at, staleBefore) => ports.apiKeys.recordUse(id, at, staleBefore), logger: ports.logger }, intervalMs, 'api_key');
  }
}
