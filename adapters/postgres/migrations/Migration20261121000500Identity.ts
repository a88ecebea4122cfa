import { Migration } from '@mikro-orm/migrations';

/** Identity-provider links and pending sign-in flows, generated from adapters/postgres/schema/identity.entities.ts. */
export class Migration20261121000500Identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idp_login_flow" ("id" bigserial primary key, "flow_key_hash" varchar(64) not null, "code_verifier" varchar(128) not null, "nonce" varchar(255) not null, "expires_at" timestamptz not null, "consumed_at" timestamptz null, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "idp_login_flow" add constraint "idp_login_flow_flow_key_hash_unique" unique ("flow_key_hash");`);
    this.addSql(`create index "idp_login_flow_expires_at_index" on "idp_login_flow" ("expires_at");`);
    this.addSql(`create table "identity_link" ("id" serial primary key, "user_id" int not null, "issuer" varchar(500) not null, "subject" varchar(255) not null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "identity_link_user_id_index" on "identity_link" ("user_id");`);
    this.addSql(`alter table "identity_link" add constraint "identity_link_issuer_subject_unique" unique ("issuer", "subject");`);
    this.addSql(`alter table "identity_link" add constraint "identity_link_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "identity_link" cascade;`);
    this.addSql(`drop table if exists "idp_login_flow" cascade;`);
  }
}
