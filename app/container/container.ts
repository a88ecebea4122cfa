import 'reflect-metadata';
import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import type { Infrastructure } from './infrastructure';
import { infrastructureModule } from './infrastructure.module';
import { isDatabaseUnavailable } from '../../adapters/postgres/connection-errors';
import { featureModules } from './features';

export function isDependencyDown(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'MaxRetriesPerRequestError';
}

/** The app's one container: the shared infrastructure, then one module per bounded context. */
export function createContainer(config: AppConfig, logger: Logger, infra: Infrastructure): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.load(infrastructureModule(config, logger, infra), ...featureModules());
  return container;
}
