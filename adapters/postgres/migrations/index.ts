import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000Foundation } from './Migration20261121000000Foundation';
import { Migration20261121000100Accounts } from './Migration20261121000100Accounts';

/** Every migration, in order. Listed explicitly so bundlers and tsx never depend on a glob. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261121000000Foundation', class: Migration20261121000000Foundation },
  { name: 'Migration20261121000100Accounts', class: Migration20261121000100Accounts },
];
