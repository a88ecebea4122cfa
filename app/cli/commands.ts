import type { Container } from 'inversify';
import * as v from 'valibot';
import type { AppConfig } from '../config/config';
import { TOKENS } from '../container/tokens';
import { startEmbeddedPostgres } from '../../adapters/postgres/embedded-postgres';
import { migrate, openOrm } from '../../adapters/postgres/orm';
import { configReport } from './config-report';

const emailSchema = v.pipe(v.string(), v.trim(), v.email());

/** What a command gets: settings, output, and the app's container on demand. */
export interface CliContext {
  config(): AppConfig;
  out(line: string): void;
  /** A secret typed at a hidden prompt, or the first line of piped stdin. */
  readSecret(prompt: string): Promise<string>;
  /** Opens the infrastructure, builds the app's container, runs `work`, closes everything. */
  withContainer<T>(work: (container: Container) => Promise<T>): Promise<T>;
}

export interface CliCommand {
  name: string;
  /** Options after the name, for the usage text. */
  synopsis: string;
  summary: string;
  /** `--name <value>` options; every one listed is required. */
  options: readonly string[];
  /** `--name <value>` options that may be left out. */
  optionalOptions?: readonly string[];
  /** Resolves the exit code. Throwing prints `error: <message>` and exits 1. */
  run(values: Record<string, string>, cli: CliContext): Promise<number>;
}

/** EXIT_USAGE: the command cannot run as asked (unknown, bad arguments, not available). */
export const EXIT_OK = 0;
export const EXIT_USAGE = 2;

const migrateCommand: CliCommand = {
  name: 'migrate',
  synopsis: '',
  summary: 'Apply pending migrations to APP_DATABASE_URL, or to the embedded database in APP_DATA_DIR',
  options: [],
  async run(_values, cli) {
    const config = cli.config();
    const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir);
    try {
      const orm = await openOrm({ ...(embedded ? { embedded: embedded.connection } : { clientUrl: config.databaseUrl }), purpose: 'migrate' });
      try {
        const applied = await migrate(orm);
        for (const name of applied) cli.out(`applied ${name}`);
        cli.out(applied.length > 0 ? `${applied.length} migration(s) applied` : 'no pending migrations: the schema is up to date');
      } finally {
        await orm.close(true);
      }
    } finally {
      await embedded?.close();
    }
    return EXIT_OK;
  },
};

const pruneSessionsCommand: CliCommand = {
  name: 'prune-sessions',
  synopsis: '',
  summary: 'Delete sessions expired longer than APP_CRON_SESSION_RETENTION_DAYS ago',
  options: [],
  async run(_values, cli) {
    const pruned = await cli.withContainer((container) => container.get(TOKENS.JobUseCases).pruneExpiredSessions.execute());
    cli.out(`pruned ${pruned} expired session(s)`);
    return EXIT_OK;
  },
};

const createSysAdminCommand: CliCommand = {
  name: 'create-sys-admin',
  synopsis: '--email <email> [--password <password>]',
  summary: 'Create a verified sys_admin in its own system organization (idempotent per address); without --password, reads it from a hidden prompt or the first line of stdin',
  options: ['email'],
  // Still accepted, as documented, but a password on the command line shows in `ps` and in
  // shell history: the prompt (or a pipe) is the way to pass it.
  optionalOptions: ['password'],
  async run({ email, password }, cli) {
    if (!v.is(emailSchema, email)) {
      cli.out(`create-sys-admin: "${email}" is not an email address`);
      return EXIT_USAGE;
    }
    const secret = password ?? (await cli.readSecret(`Password for ${email.trim()}: `));
    const result = await cli.withContainer((container) =>
      container.get(TOKENS.OrganizationUseCases).createSystemAdmin.execute({ email, password: secret }),
    );
    cli.out(
      result.outcome === 'created'
        ? `created sys_admin ${result.email} (user ${result.userId})`
        : `${result.email} is already a sys_admin (user ${result.userId}): nothing changed`,
    );
    return EXIT_OK;
  },
};

const configCommand: CliCommand = {
  name: 'config',
  synopsis: '',
  summary: 'Print the settings read and the configuration they make, secrets masked, and every problem found (exit 1 when startup would fail)',
  options: [],
  async run(_values, cli) {
    const report = configReport(process.env);
    for (const line of report.lines) cli.out(line);
    return report.ok ? EXIT_OK : 1;
  },
};

/** Every command of `npm run cli`; add one here and it shows in the usage text. */
export const COMMANDS: readonly CliCommand[] = [migrateCommand, pruneSessionsCommand, createSysAdminCommand, configCommand];
