import { Migration } from '@mikro-orm/migrations';

/** Organizations, users, sessions, one-time tokens and the email outbox. */
export class Migration20261121000100Accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "email_outbox" ("id" bigserial primary key, "idempotency_key" uuid not null, "recipient" varchar(320) not null, "subject" varchar(500) not null, "text_body" text not null, "html_body" text not null, "tag" varchar(50) null, "status" varchar(20) not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz not null default now(), "last_error" text null, "created_at" timestamptz not null default now(), "sent_at" timestamptz null);`);
    this.addSql(`alter table "email_outbox" add constraint "email_outbox_idempotency_key_unique" unique ("idempotency_key");`);
    this.addSql(`create index "email_outbox_status_next_attempt_at_index" on "email_outbox" ("status", "next_attempt_at");`);
    this.addSql(`create table "organization" ("id" serial primary key, "name" varchar(200) not null, "status" varchar(20) not null default 'active', "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`create table "app_user" ("id" serial primary key, "organization_id" int not null, "email" varchar(320) not null, "password_hash" varchar(100) null, "first_name" varchar(100) null, "last_name" varchar(100) null, "role" varchar(20) not null, "email_verified_at" timestamptz null, "status" varchar(20) not null default 'active', "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`alter table "app_user" add constraint "app_user_email_unique" unique ("email");`);
    this.addSql(`create index "app_user_organization_id_role_index" on "app_user" ("organization_id", "role");`);
    this.addSql(`create table "session" ("id" bigserial primary key, "token_hash" varchar(64) not null, "user_id" int not null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null);`);
    this.addSql(`alter table "session" add constraint "session_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "session_user_id_index" on "session" ("user_id");`);
    this.addSql(`create index "session_expires_at_index" on "session" ("expires_at");`);
    this.addSql(`create table "one_time_token" ("id" bigserial primary key, "token_hash" varchar(64) not null, "purpose" varchar(30) not null, "user_id" int not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "one_time_token" add constraint "one_time_token_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "one_time_token_user_id_index" on "one_time_token" ("user_id");`);
    this.addSql(`alter table "app_user" add constraint "app_user_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "session" add constraint "session_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "one_time_token" add constraint "one_time_token_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "one_time_token" cascade;`);
    this.addSql(`drop table if exists "session" cascade;`);
    this.addSql(`drop table if exists "app_user" cascade;`);
    this.addSql(`drop table if exists "organization" cascade;`);
    this.addSql(`drop table if exists "email_outbox" cascade;`);
  }
}
