import type { ContainerModule } from 'inversify';
import { accountsModule } from './accounts.module';
import { projectsModule } from './projects.module';
import { jobsModule } from './jobs.module';
import { idpModule } from './idp.module';
import { organizationsModule } from './organizations.module';
import { billingModule } from './billing.module';
import { mfaModule } from './mfa.module';
import { plansModule } from './plans.module';
import { notesModule } from './notes.module';
import { aiModule } from './ai.module';
import { passkeysModule } from './passkeys.module';
import { auditModule } from './audit.module';
import { apiKeysModule } from './api-keys.module';

/** One container module per bounded context; each binds its use cases and its routes. */
export function featureModules(): ContainerModule[] {
  return [auditModule(), accountsModule(), projectsModule(), jobsModule(), idpModule(), organizationsModule(), billingModule(), mfaModule(), passkeysModule(), apiKeysModule(), plansModule(), notesModule(), aiModule()];
}
