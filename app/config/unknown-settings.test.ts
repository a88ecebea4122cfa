import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { loadEnvFile } from './env-file';
import { editDistance } from './unknown-settings';

const BETA = {
  APP_ENVIRONMENT: 'beta',
  APP_BASE_WEB_URL: 'https://app.example.test',
  APP_BASE_API_URL: 'https://api.example.test',
  APP_CRON_SECRET: 'cron-secret-value-0123456789',
  APP_JWT_SECRET_KEY: 'jwt-secret-value-0123456789',
  APP_EMAIL_PROVIDER: 'stub',
  APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

function problems(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('unknown APP_* settings', () => {
  it('in dev, a warning naming the nearest setting; the server still starts', () => {
    const { warnings } = loadConfig({ APP_STRIPE_SECRET_KEY: 'sk_test_123', APP_DATABSE_URL: 'postgres://x', APP_WHATEVER_ELSE: '1' });
    expect(warnings).toContain('APP_STRIPE_SECRET_KEY is not a setting: did you mean APP_STRIPE_API_KEY?');
    expect(warnings).toContain('APP_DATABSE_URL is not a setting: did you mean APP_DATABASE_URL?');
    expect(warnings).toContain('APP_WHATEVER_ELSE is not a setting');
    expect(warnings.join('\n')).not.toContain('sk_test_123');
  });

  it('in beta and prod, a startup error, listed with the other problems', () => {
    expect(problems({ ...BETA, APP_STRIPE_SECRET_KEY: 'sk_test_123' })).toEqual([
      'APP_STRIPE_SECRET_KEY is not a setting: did you mean APP_STRIPE_API_KEY? (list it in APP_IGNORE_SETTINGS to start anyway)',
    ]);
    const both = problems({ ...BETA, APP_PORT: 'eighty', APP_LOGLEVEL: 'debug' });
    expect(both).toContain('APP_PORT must be a whole number');
    expect(both).toContain('APP_LOGLEVEL is not a setting: did you mean APP_LOG_LEVEL? (list it in APP_IGNORE_SETTINGS to start anyway)');
  });

  it('APP_IGNORE_SETTINGS lets named variables through, and only those', () => {
    expect(problems({ ...BETA, APP_BUILD_SHA: 'abc', APP_REGION: 'eu', APP_IGNORE_SETTINGS: 'APP_BUILD_SHA, APP_REGION' })).toEqual([]);
    expect(loadConfig({ APP_BUILD_SHA: 'abc', APP_IGNORE_SETTINGS: 'APP_BUILD_SHA' }).warnings).toEqual(
      expect.not.arrayContaining([expect.stringContaining('APP_BUILD_SHA')]),
    );
    expect(problems({ ...BETA, APP_BUILD_SHA: 'abc', APP_OTHER: '1', APP_IGNORE_SETTINGS: 'APP_BUILD_SHA' })).toHaveLength(1);
  });

  it('measures nearness by edit distance', () => {
    expect(editDistance('APP_PORT', 'APP_PORT')).toBe(0);
    expect(editDistance('APP_PROT', 'APP_PORT')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('.env', () => {
  it('is read when present, without overriding the environment, and skipped without a word when absent', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tk-env-'));
    const stderr = vi.spyOn(process.stderr, 'write');
    try {
      loadEnvFile(join(dir, '.env'));
      expect(stderr).not.toHaveBeenCalled();
      await writeFile(join(dir, '.env'), 'TK_ENV_FILE_A=file\nTK_ENV_FILE_B=file\n');
      process.env.TK_ENV_FILE_A = 'environment';
      loadEnvFile(join(dir, '.env'));
      expect([process.env.TK_ENV_FILE_A, process.env.TK_ENV_FILE_B]).toEqual(['environment', 'file']);
    } finally {
      stderr.mockRestore();
      delete process.env.TK_ENV_FILE_A;
      delete process.env.TK_ENV_FILE_B;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
