import { DomainError } from '../shared/domain-error';

/** The caller's organization no longer exists: their session speaks for nobody, so they must sign in again. */
export const organizationGone = (): DomainError => new DomainError('UNAUTHORIZED', 'Authentication required');
