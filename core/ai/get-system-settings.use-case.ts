import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import type { AiDeps } from './ai-deps';
import type { SystemSettings } from './system-settings.port';

/** The deployment's switches (sys_admin). */
export class GetSystemSettings {
  constructor(private readonly deps: Pick<AiDeps, 'systemSettings'>) {}

  execute(caller: Caller): Promise<SystemSettings> {
    requireRole(caller, 'sys_admin');
    return this.deps.systemSettings.get();
  }
}
