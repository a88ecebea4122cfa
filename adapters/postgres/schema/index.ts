import { SystemSettingSchema } from './system-setting.entity';

/**
 * The schema's source of truth. Migrations in ../migrations are generated from these
 * definitions (`npm run cli -- migration:create`) and checked in; an integration test fails
 * when the two drift apart.
 */
export const entities = [SystemSettingSchema];
