import { ConfigError, loadConfig, SETTING_NAMES } from '../config/config';

const MASK = '********';

/** Settings whose value is a secret, by name: never printed. */
const SECRET_NAME = /(SECRET|_KEY|PASSWORD|TOKEN|CONNECTION_STRING)/;
/** Fields of the configuration that hold a secret. */
const SECRET_FIELD = /(secret|apiKey|encryptionKey|connectionString|password)/i;

/** A URL's password replaced, the rest kept: `postgres://app:********@db:5432/app`. */
function maskUrlPassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s]*@/i, `$1${MASK}@`);
}

function maskSetting(name: string, value: string): string {
  return SECRET_NAME.test(name) ? MASK : maskUrlPassword(value);
}

function maskConfig(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return SECRET_FIELD.test(key) ? MASK : maskUrlPassword(value);
  if (Array.isArray(value)) return value.map((item) => maskConfig(item));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, inner]) => [k, maskConfig(inner, k)]));
  return value;
}

export interface ConfigReport {
  lines: string[];
  /** False when startup would refuse these settings. */
  ok: boolean;
}

/**
 * `npm run cli -- config`: the `APP_*` variables read, the configuration they make (defaults
 * filled in), secrets masked, then every problem: what stops startup and what it only warns about.
 */
export function configReport(env: Record<string, string | undefined>): ConfigReport {
  const known = new Set(SETTING_NAMES);
  const set = Object.entries(env)
    .filter(([name, value]) => name.startsWith('APP_') && value !== undefined && value !== '')
    .sort(([a], [b]) => a.localeCompare(b));
  const lines = ['Settings read (APP_*):'];
  if (set.length === 0) lines.push('  (none: every setting has its default)');
  for (const [name, value] of set) lines.push(`  ${name}=${maskSetting(name, value!)}${known.has(name) ? '' : '   (unknown)'}`);

  let errors: readonly string[] = [];
  let warnings: readonly string[] = [];
  try {
    const loaded = loadConfig(env);
    warnings = loaded.warnings;
    lines.push('', 'Effective configuration:', ...JSON.stringify(maskConfig(loaded.config), null, 2).split('\n').map((line) => `  ${line}`));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    errors = error.problems;
    lines.push('', 'Effective configuration: none, startup would stop on the errors below.');
  }
  lines.push('', errors.length + warnings.length === 0 ? 'No problems found.' : 'Problems:');
  for (const problem of errors) lines.push(`  error: ${problem}`);
  for (const warning of warnings) lines.push(`  warning: ${warning}`);
  return { lines, ok: errors.length === 0 };
}
