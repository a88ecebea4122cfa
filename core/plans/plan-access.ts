import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import { DomainError } from '../shared/domain-error';
import type { PlanConflict } from './plan-repository.port';

/** Plans are shared by every organization: only a system administrator changes them. */
export function assertMayManagePlans(caller: Caller): void {
  requireRole(caller, 'sys_admin');
}

const CONFLICT_MESSAGES: Record<PlanConflict, string> = {
  'name-taken': 'Another plan has this name',
  'product-taken': 'Another plan is sold as this product',
  'default-inactive': 'The default plan must be active: make another plan the default first, or activate this one',
};

/** A plan write refused because of the other plans' state; `reason` is stable for clients. */
export const planConflict = (conflict: PlanConflict): DomainError =>
  new DomainError('CONFLICT', CONFLICT_MESSAGES[conflict], { reason: conflict.replace('-', '_') });
