import { Migration } from '@mikro-orm/migrations';

/** Subscriptions and handled provider events, generated from adapters/postgres/schema/billing.entities.ts. */
export class Migration20261121000600Billing extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "billing_event" ("event_id" varchar(255) not null, "received_at" timestamptz not null default now(), constraint "billing_event_pkey" primary key ("event_id"));`);
    this.addSql(`create table "subscription" ("organization_id" int not null, "status" varchar(32) not null, "stripe_customer_id" varchar(255) null, "stripe_subscription_id" varchar(255) null, "price_id" varchar(255) null, "current_period_end" timestamptz null, "event_at" timestamptz not null, "updated_at" timestamptz not null default now(), constraint "subscription_pkey" primary key ("organization_id"));`);
    this.addSql(`create index "subscription_stripe_customer_id_index" on "subscription" ("stripe_customer_id");`);
    this.addSql(`alter table "subscription" add constraint "subscription_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "subscription" cascade;`);
    this.addSql(`drop table if exists "billing_event" cascade;`);
  }
}
