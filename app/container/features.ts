import type { ContainerModule } from 'inversify';
import { accountsModule } from './accounts.module';

/** One container module per bounded context; each binds its use cases and its routes. */
export function featureModules(): ContainerModule[] {
  return [accountsModule()];
}
