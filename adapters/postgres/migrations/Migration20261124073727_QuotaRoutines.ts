import { Migration } from '@mikro-orm/migrations';

export class Migration20261124073727_QuotaRoutines extends Migration {

  override name = 'Migration20261124073727_QuotaRoutines';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "note_create_within_limit"("p_organization_id" integer, "p_user_id" integer, "p_title" varchar, "p_content" text, "p_created_at" timestamptz, "p_limit" integer) returns setof note volatile language plpgsql as \$\$ begin
      if p_limit <> -1 then
        perform 1 from organization where id = p_organization_id for no key update;         if (select count(*) from note where organization_id = p_organization_id) >= p_limit then
          return;         end if;       end if;       return query insert into note (organization_id, user_id, title, content, created_at, updated_at)
        values (p_organization_id, p_user_id, p_title, p_content, p_created_at, p_created_at) returning *;     end \$\$;`);

    this.addSql(`create or replace function "project_create_within_limit"("p_organization_id" integer, "p_user_id" integer, "p_name" varchar, "p_description" text, "p_created_at" timestamptz, "p_limit" integer) returns setof project volatile language plpgsql as \$\$ begin
      if p_limit <> -1 then
        perform 1 from organization where id = p_organization_id for no key update;         if (select count(*) from project where organization_id = p_organization_id) >= p_limit then
          return;         end if;       end if;       return query insert into project (organization_id, user_id, name, description, created_at, updated_at)
        values (p_organization_id, p_user_id, p_name, p_description, p_created_at, p_created_at) returning *;     end \$\$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists "note_create_within_limit"(integer, integer, varchar, text, timestamptz, integer);`);

    this.addSql(`drop function if exists "project_create_within_limit"(integer, integer, varchar, text, timestamptz, integer);`);
  }

}
