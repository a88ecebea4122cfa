import { Migration } from '@mikro-orm/migrations';

export class Migration20261124070047_DropSqlClockDefaults extends Migration {

  override name = 'Migration20261124070047_DropSqlClockDefaults';

  override up(): void | Promise<void> {
    this.addSql(`drop table if exists "system_setting" cascade;`);

    this.addSql(`alter table "billing_event" alter column "received_at" drop default;`);

    this.addSql(`alter table "email_outbox" alter column "next_attempt_at" drop default;`);
    this.addSql(`alter table "email_outbox" alter column "created_at" drop default;`);

    this.addSql(`alter table "idp_login_flow" alter column "created_at" drop default;`);

    this.addSql(`alter table "job_run" alter column "claimed_at" drop default;`);

    this.addSql(`alter table "organization" alter column "created_at" drop default;`);
    this.addSql(`alter table "organization" alter column "updated_at" drop default;`);

    this.addSql(`alter table "subscription" alter column "updated_at" drop default;`);

    this.addSql(`alter table "app_user" alter column "created_at" drop default;`);
    this.addSql(`alter table "app_user" alter column "updated_at" drop default;`);

    this.addSql(`alter table "session" alter column "created_at" drop default;`);

    this.addSql(`alter table "project" alter column "created_at" drop default;`);
    this.addSql(`alter table "project" alter column "updated_at" drop default;`);

    this.addSql(`alter table "one_time_token" alter column "created_at" drop default;`);

    this.addSql(`alter table "invitation" alter column "created_at" drop default;`);

    this.addSql(`alter table "identity_link" alter column "created_at" drop default;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create table "system_setting" ("key" varchar(100) not null, "value" jsonb not null, "updated_at" timestamptz(6) not null default now(), primary key ("key"));`);

    this.addSql(`alter table "app_user" alter column "created_at" set default now();`);
    this.addSql(`alter table "app_user" alter column "updated_at" set default now();`);

    this.addSql(`alter table "billing_event" alter column "received_at" set default now();`);

    this.addSql(`alter table "email_outbox" alter column "next_attempt_at" set default now();`);
    this.addSql(`alter table "email_outbox" alter column "created_at" set default now();`);

    this.addSql(`alter table "identity_link" alter column "created_at" set default now();`);

    this.addSql(`alter table "idp_login_flow" alter column "created_at" set default now();`);

    this.addSql(`alter table "invitation" alter column "created_at" set default now();`);

    this.addSql(`alter table "job_run" alter column "claimed_at" set default now();`);

    this.addSql(`alter table "one_time_token" alter column "created_at" set default now();`);

    this.addSql(`alter table "organization" alter column "created_at" set default now();`);
    this.addSql(`alter table "organization" alter column "updated_at" set default now();`);

    this.addSql(`alter table "project" alter column "created_at" set default now();`);
    this.addSql(`alter table "project" alter column "updated_at" set default now();`);

    this.addSql(`alter table "session" alter column "created_at" set default now();`);

    this.addSql(`alter table "subscription" alter column "updated_at" set default now();`);
  }

}
