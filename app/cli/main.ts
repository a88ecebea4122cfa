import { loadEnvFile } from '../config/env-file';
import { parseArgs } from 'node:util';
import type { Container } from 'inversify';
import { loadConfig, type AppConfig } from '../config/config';
import { createContainer } from '../container/container';
import { openInfrastructure } from '../container/infrastructure';
import { createLogger } from '../logging';
import { DomainError } from '../../core/shared/domain-error';
import { COMMANDS, EXIT_USAGE, type CliCommand, type CliContext } from './commands';
import { readSecret } from './read-secret';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

function usage(): string {
  const rows = COMMANDS.map((command) => [`${command.name} ${command.synopsis}`.trim(), command.summary] as const);
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    'Usage: npm run cli -- <command> [options]',
    '',
    'Commands:',
    ...rows.map(([left, summary]) => `  ${left.padEnd(width)}  ${summary}`),
    '',
    'Settings come from the APP_* environment variables, as for `npm start`.',
  ].join('\n');
}

/** `--name value` pairs for the command; undefined (after printing why) when they do not fit. */
function parseOptions(command: CliCommand, args: string[]): Record<string, string> | undefined {
  let values: Record<string, string | boolean | undefined>;
  try {
    const names = [...command.options, ...(command.optionalOptions ?? [])];
    const options = Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
    values = parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    err(`${command.name}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  const missing = command.options.filter((name) => typeof values[name] !== 'string' || values[name] === '');
  if (missing.length > 0) {
    err(`${command.name}: missing ${missing.map((name) => `--${name}`).join(', ')}`);
    return undefined;
  }
  const empty = (command.optionalOptions ?? []).filter((name) => values[name] === '');
  if (empty.length > 0) {
    err(`${command.name}: empty ${empty.map((name) => `--${name}`).join(', ')}`);
    return undefined;
  }
  return values as Record<string, string>;
}

function context(): CliContext {
  let config: AppConfig | undefined;
  const settings = () => (config ??= loadConfig(process.env).config);
  return {
    config: settings,
    out,
    readSecret,
    async withContainer<T>(work: (container: Container) => Promise<T>): Promise<T> {
      // Logs go to stderr so that stdout holds only the command's answer.
      const logger = createLogger('warn', process.stderr);
      const infra = await openInfrastructure(settings(), logger);
      const container = createContainer(settings(), logger, infra);
      try {
        return await work(container);
      } finally {
        await container.unbindAllAsync();
        await infra.close();
      }
    },
  };
}

/** One line, never a stack trace; a domain error's field messages say what to fix. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (!(error instanceof DomainError)) return error.message;
  const notes = Object.entries(error.details).filter(([, note]) => typeof note === 'string');
  return notes.length > 0 ? `${error.message} (${notes.map(([field, note]) => `${field}: ${String(note)}`).join('; ')})` : error.message;
}

/** `npm run cli -- <command>`: exit 0 done, 1 failed (`error: …`), 2 usage. */
async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    if (name !== undefined && name !== '--help' && name !== '-h' && name !== 'help') err(`unknown command "${name}"\n`);
    err(usage());
    return EXIT_USAGE;
  }
  const values = parseOptions(command, args);
  if (!values) {
    err(`\n${usage()}`);
    return EXIT_USAGE;
  }
  return command.run(values, context());
}

loadEnvFile();
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    err(`error: ${describeError(error)}`);
    process.exit(1);
  },
);
