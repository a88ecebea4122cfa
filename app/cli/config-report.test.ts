import { describe, expect, it } from 'vitest';
import { configReport } from './config-report';

describe('npm run cli -- config', () => {
  it('prints the settings and the effective configuration with every secret masked, and the warnings', () => {
    const env = {
      APP_STRIPE_API_KEY: 'sk_test_visible_nowhere',
      APP_STRIPE_WEBHOOK_SECRET: 'whsec_visible_nowhere',
      APP_DATABASE_URL: 'postgres://app:db-password-nowhere@db:5432/app',
      APP_JWT_SECRET_KEY: 'jwt-secret-visible-nowhere',
      APP_STRIPE_SECRET_KEY: 'sk_typo_visible_nowhere',
      PATH: '/usr/bin',
    };
    const report = configReport(env);
    const text = report.lines.join('\n');
    expect(report.ok).toBe(true);
    expect(text).not.toMatch(/visible_nowhere|visible-nowhere|db-password-nowhere/);
    expect(text).toContain('APP_DATABASE_URL=postgres://app:********@db:5432/app');
    expect(text).toContain('APP_STRIPE_SECRET_KEY=********   (unknown)');
    expect(text).toContain('"apiKey": "********"');
    expect(text).toContain('"port": 8000');
    expect(text).toContain('warning: APP_STRIPE_SECRET_KEY is not a setting: did you mean APP_STRIPE_API_KEY?');
    expect(text).not.toContain('PATH');
  });

  it('lists every error and says there is no configuration when startup would stop', () => {
    const report = configReport({ APP_ENVIRONMENT: 'prod', APP_PORT: 'x', APP_JWT_SECRET_KEY: 'short-leak' });
    const text = report.lines.join('\n');
    expect(report.ok).toBe(false);
    expect(text).toContain('Effective configuration: none');
    expect(text).toContain('error: APP_PORT must be a whole number');
    expect(text).toContain('error: APP_ENCRYPTION_KEY is required outside dev');
    expect(text).not.toContain('short-leak');
  });
});
