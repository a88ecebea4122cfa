import { Migration } from '@mikro-orm/migrations';

export class Migration20261124071111_AccountSecurity extends Migration {

  override name = 'Migration20261124071111_AccountSecurity';

  override up(): void | Promise<void> {
    this.addSql(`create table "mfa_recovery_code" ("id" bigserial primary key, "user_id" int not null, "code_hash" varchar(64) not null, "used_at" timestamptz null);`);
    this.addSql(`create index "mfa_recovery_code_user_id_code_hash_index" on "mfa_recovery_code" ("user_id", "code_hash");`);

    this.addSql(`create table "mfa_challenge" ("id" bigserial primary key, "token_hash" varchar(64) not null, "user_id" int not null, "attempts" int not null default 0, "created_at" timestamptz not null, "expires_at" timestamptz not null);`);
    this.addSql(`alter table "mfa_challenge" add constraint "mfa_challenge_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "mfa_challenge_user_id_index" on "mfa_challenge" ("user_id");`);
    this.addSql(`create index "mfa_challenge_expires_at_index" on "mfa_challenge" ("expires_at");`);

    this.addSql(`create table "user_totp" ("user_id" int not null, "sealed_secret" varchar(200) not null, "confirmed_at" timestamptz null, "last_used_step" bigint null, "created_at" timestamptz not null, primary key ("user_id"));`);

    this.addSql(`create index "email_outbox_sent_at_index" on "email_outbox" ("sent_at");`);

    this.addSql(`alter table "organization" add "overage_enabled" boolean not null default false, add "require_mfa" boolean not null default false;`);

    // Edited after generation: sessions that exist at upgrade time get last_seen_at = created_at
    // before the column becomes NOT NULL (a plain NOT NULL add fails on a table with rows).
    this.addSql(`alter table "session" add "user_agent" varchar(255) null, add "ip" varchar(45) null, add "last_seen_at" timestamptz null;`);
    this.addSql(`update "session" set "last_seen_at" = "created_at";`);
    this.addSql(`alter table "session" alter column "last_seen_at" set not null;`);

    this.addSql(`alter table "mfa_recovery_code" add constraint "mfa_recovery_code_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "mfa_challenge" add constraint "mfa_challenge_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "user_totp" add constraint "user_totp_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "mfa_recovery_code" cascade;`);
    this.addSql(`drop table if exists "mfa_challenge" cascade;`);
    this.addSql(`drop table if exists "user_totp" cascade;`);

    this.addSql(`drop index "email_outbox_sent_at_index";`);

    this.addSql(`alter table "organization" drop column "overage_enabled", drop column "require_mfa";`);

    this.addSql(`alter table "session" drop column "user_agent", drop column "ip", drop column "last_seen_at";`);
  }

}
