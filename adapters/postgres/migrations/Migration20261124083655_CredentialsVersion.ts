import { Migration } from '@mikro-orm/migrations';

export class Migration20261124083655_CredentialsVersion extends Migration {

  override name = 'Migration20261124083655_CredentialsVersion';

  override up(): void | Promise<void> {
    this.addSql(`alter table "app_user" add "credentials_version" int not null default 0;`);

    this.addSql(`alter table "session" add "credentials_version" int not null default 0;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "app_user" drop column "credentials_version";`);

    this.addSql(`alter table "session" drop column "credentials_version";`);
  }

}
