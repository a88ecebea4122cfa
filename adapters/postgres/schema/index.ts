import { EmailOutboxSchema, OneTimeTokenSchema, OrganizationSchema, SessionSchema, UserSchema } from './accounts.entities';
import { ProjectSchema } from './project.entity';
import { JobRunSchema } from './jobs.entities';
import { InvitationSchema } from './organizations.entities';
import { IdentityLinkSchema, IdpLoginFlowSchema } from './identity.entities';
import { BillingEventSchema, BillingSubscriptionSchema, SubscriptionSchema } from './billing.entities';
import { MfaChallengeSchema, MfaRecoveryCodeSchema, UserTotpSchema } from './mfa.entities';
import { PlanSchema } from './plan.entity';
import { NoteSchema } from './note.entity';
import { aiEntities } from './ai.entities';
import { PasskeyChallengeSchema, PasskeySchema } from './passkeys.entities';
import { AuditEventSchema } from './audit.entities';
import { ApiKeySchema } from './api-keys.entities';

/**
 * The schema's source of truth. Migrations in ../migrations are generated from these
 * definitions and checked in; an integration test fails when the two drift apart.
 */
export const entities = [OrganizationSchema, UserSchema, SessionSchema, OneTimeTokenSchema, EmailOutboxSchema, ProjectSchema, JobRunSchema, InvitationSchema, IdentityLinkSchema, IdpLoginFlowSchema, SubscriptionSchema, BillingSubscriptionSchema, BillingEventSchema, UserTotpSchema, MfaRecoveryCodeSchema, MfaChallengeSchema, PlanSchema, NoteSchema, ...aiEntities, PasskeySchema, PasskeyChallengeSchema, AuditEventSchema, ApiKeySchema];
