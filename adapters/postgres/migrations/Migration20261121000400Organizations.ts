import { Migration } from '@mikro-orm/migrations';

/** Invitations, generated from adapters/postgres/schema/organizations.entities.ts. */
export class Migration20261121000400Organizations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "invitation" ("id" serial primary key, "organization_id" int not null, "email" varchar(320) not null, "role" varchar(20) not null, "token_hash" varchar(64) not null, "invited_by_user_id" int null, "expires_at" timestamptz not null, "accepted_at" timestamptz null, "revoked_at" timestamptz null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "invitation_organization_id_index" on "invitation" ("organization_id");`);
    this.addSql(`create index "invitation_email_index" on "invitation" ("email");`);
    this.addSql(`alter table "invitation" add constraint "invitation_token_hash_unique" unique ("token_hash");`);
    this.addSql(`alter table "invitation" add constraint "invitation_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "invitation" add constraint "invitation_invited_by_user_id_foreign" foreign key ("invited_by_user_id") references "app_user" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "invitation" cascade;`);
  }
}
