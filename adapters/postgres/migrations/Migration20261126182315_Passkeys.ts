import { Migration } from '@mikro-orm/migrations';

export class Migration20261126182315_Passkeys extends Migration {

  override name = 'Migration20261126182315_Passkeys';

  override up(): void | Promise<void> {
    this.addSql(`create table "passkey_challenge" ("id" bigserial primary key, "binding" varchar(80) not null, "challenge_hash" varchar(64) not null, "user_id" int null, "user_handle" varchar(64) null, "created_at" timestamptz not null, "expires_at" timestamptz not null);`);
    this.addSql(`alter table "passkey_challenge" add constraint "passkey_challenge_binding_unique" unique ("binding");`);
    this.addSql(`create index "passkey_challenge_user_id_index" on "passkey_challenge" ("user_id");`);
    this.addSql(`create index "passkey_challenge_expires_at_index" on "passkey_challenge" ("expires_at");`);

    this.addSql(`create table "passkey" ("id" bigserial primary key, "user_id" int not null, "name" varchar(64) not null, "credential_id" varchar(1400) not null, "public_key" text not null, "sign_count" bigint not null default '0', "user_handle" varchar(64) not null, "device_type" varchar(20) not null, "backed_up" boolean not null, "transports" varchar(200) not null default '', "created_at" timestamptz not null, "last_used_at" timestamptz null);`);
    this.addSql(`create index "passkey_user_id_index" on "passkey" ("user_id");`);
    this.addSql(`alter table "passkey" add constraint "passkey_credential_id_unique" unique ("credential_id");`);

    this.addSql(`alter table "session" add "via_passkey" boolean not null default false;`);

    this.addSql(`alter table "passkey_challenge" add constraint "passkey_challenge_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "passkey" add constraint "passkey_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "passkey_challenge" cascade;`);
    this.addSql(`drop table if exists "passkey" cascade;`);

    this.addSql(`alter table "session" drop column "via_passkey";`);
  }

}
