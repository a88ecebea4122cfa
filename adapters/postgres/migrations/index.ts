import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000Foundation } from './Migration20261121000000Foundation';
import { Migration20261121000100Accounts } from './Migration20261121000100Accounts';
import { Migration20261121000200Projects } from './Migration20261121000200Projects';
import { Migration20261121000300Jobs } from './Migration20261121000300Jobs';
import { Migration20261121000400Organizations } from './Migration20261121000400Organizations';
import { Migration20261121000500Identity } from './Migration20261121000500Identity';
import { Migration20261121000600Billing } from './Migration20261121000600Billing';
import { Migration20261124070047_DropSqlClockDefaults } from './Migration20261124070047_DropSqlClockDefaults';
import { Migration20261124071111_AccountSecurity } from './Migration20261124071111_AccountSecurity';
import { Migration20261124081339_PlansNotesQuotas } from './Migration20261124081339_PlansNotesQuotas';
import { Migration20261124083655_CredentialsVersion } from './Migration20261124083655_CredentialsVersion';
import { Migration20261126104754_AiCopilot } from './Migration20261126104754_AiCopilot';
import { Migration20261126165036_BillingCustomerLinks } from './Migration20261126165036_BillingCustomerLinks';
import { Migration20261126174409_TokenCountsInt8 } from './Migration20261126174409_TokenCountsInt8';
import { Migration20261126181804_CopilotAdmission } from './Migration20261126181804_CopilotAdmission';
import { Migration20261126182315_Passkeys } from './Migration20261126182315_Passkeys';
import { Migration20261126194743_AuditLog } from './Migration20261126194743_AuditLog';
import { Migration20261126201651_ApiKeys } from './Migration20261126201651_ApiKeys';
import { Migration20261126204914_InvitationByApiKey } from './Migration20261126204914_InvitationByApiKey';
import { Migration20261127021917_AiIdsInt8 } from './Migration20261127021917_AiIdsInt8';

/** Every migration, in order. Written by `npm run migration:create`; listed so bundlers and tsx never depend on a glob. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261121000000Foundation', class: Migration20261121000000Foundation },
  { name: 'Migration20261121000100Accounts', class: Migration20261121000100Accounts },
  { name: 'Migration20261121000200Projects', class: Migration20261121000200Projects },
  { name: 'Migration20261121000300Jobs', class: Migration20261121000300Jobs },
  { name: 'Migration20261121000400Organizations', class: Migration20261121000400Organizations },
  { name: 'Migration20261121000500Identity', class: Migration20261121000500Identity },
  { name: 'Migration20261121000600Billing', class: Migration20261121000600Billing },
  { name: 'Migration20261124070047_DropSqlClockDefaults', class: Migration20261124070047_DropSqlClockDefaults },
  { name: 'Migration20261124071111_AccountSecurity', class: Migration20261124071111_AccountSecurity },
  { name: 'Migration20261124081339_PlansNotesQuotas', class: Migration20261124081339_PlansNotesQuotas },
  { name: 'Migration20261124083655_CredentialsVersion', class: Migration20261124083655_CredentialsVersion },
  { name: 'Migration20261126104754_AiCopilot', class: Migration20261126104754_AiCopilot },
  { name: 'Migration20261126165036_BillingCustomerLinks', class: Migration20261126165036_BillingCustomerLinks },
  { name: 'Migration20261126174409_TokenCountsInt8', class: Migration20261126174409_TokenCountsInt8 },
  { name: 'Migration20261126181804_CopilotAdmission', class: Migration20261126181804_CopilotAdmission },
  { name: 'Migration20261126182315_Passkeys', class: Migration20261126182315_Passkeys },
  { name: 'Migration20261126194743_AuditLog', class: Migration20261126194743_AuditLog },
  { name: 'Migration20261126201651_ApiKeys', class: Migration20261126201651_ApiKeys },
  { name: 'Migration20261126204914_InvitationByApiKey', class: Migration20261126204914_InvitationByApiKey },
  { name: 'Migration20261127021917_AiIdsInt8', class: Migration20261127021917_AiIdsInt8 },
];
