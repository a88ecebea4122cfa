import type { UserCaller } from '../access/caller';
import { requireRole } from '../access/require-role';
import type { AiDeps } from './ai-deps';
import type { SystemSettings } from './system-settings.port';

/** Changes the keys given and logs who changed what: these switches decide what customers are billed. */
export class UpdateSystemSettings {
  constructor(private readonly deps: Pick<AiDeps, 'systemSettings' | 'clock' | 'logger'>) {}

  async execute(caller: UserCaller, changes: Partial<SystemSettings>): Promise<SystemSettings> {
    requireRole(caller, 'sys_admin');
    const settings = await this.deps.systemSettings.update(changes, this.deps.clock.now());
    this.deps.logger.info({ user_id: caller.userId, organization_id: caller.organizationId, changes }, 'system settings changed');
    return settings;
  }
}
