import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../app/config/config';

const PROD_REQUIRED = ['APP_BASE_WEB_URL', 'APP_BASE_API_URL', 'APP_CRON_SECRET', 'APP_JWT_SECRET_KEY', 'APP_EMAIL_PROVIDER', 'APP_ENCRYPTION_KEY'];

const PROD = {
  APP_ENVIRONMENT: 'prod',
  APP_BASE_WEB_URL: 'https://app.example.test',
  APP_BASE_API_URL: 'https://api.example.test',
  APP_CRON_SECRET: 'cron-secret-value-0123456789',
  APP_JWT_SECRET_KEY: 'jwt-secret-value-0123456789',
  APP_EMAIL_PROVIDER: 'postmark',
  APP_POSTMARK_API_KEY: 'postmark-server-token',
  APP_POSTMARK_SENDER_ADDRESS: 'noreply@example.test',
  APP_POSTMARK_SENDER_NAME: 'Example',
  APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('loadConfig', () => {
  test('with nothing set, dev defaults apply and the result is frozen', () => {
    const { config } = loadConfig({});
    expect(config).toMatchObject({
      environment: 'dev',
      mode: 'b2c',
      port: 8000,
      baseWebUrl: 'http://localhost:5173',
      baseApiUrl: 'http://localhost:8000',
      corsOrigins: ['http://localhost:5173', 'http://localhost:4173'],
      databaseUrl: undefined,
      dataDir: './.data',
      redisUrl: undefined,
      rateLimitStorageUri: 'memory://',
      redisKeyPrefix: 'tenantkit',
      migrateOnStart: false,
      sessionPruneIntervalSeconds: 3600,
      trustedProxyHops: 1,
      sessionCookieName: 'session_id',
      sessionCookieMaxAge: 86400,
      cronSessionRetentionDays: 7,
      idp: undefined,
      email: { provider: 'stub' },
      passwordHashCost: 11,
      stripe: undefined,
      logLevel: 'info',
      logFormat: 'auto',
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.corsOrigins)).toBe(true);
    expect(Object.isFrozen(config.email)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  test('in dev, unset secrets are generated per process, with a warning each', () => {
    const a = loadConfig({});
    const b = loadConfig({});
    expect(a.config.cronSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.config.jwtSecretKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.config.cronSecret).not.toBe(b.config.cronSecret);
    expect(a.config.jwtSecretKey).not.toBe(a.config.cronSecret);
    expect(a.warnings).toHaveLength(2);
    expect(a.warnings.join('\n')).toMatch(/APP_CRON_SECRET/);
    expect(a.warnings.join('\n')).toMatch(/APP_JWT_SECRET_KEY/);
    expect(a.warnings.join('\n')).not.toContain(a.config.cronSecret);
  });

  test('settings given in dev are used, and then no warning is logged', () => {
    const { config, warnings } = loadConfig({ APP_CRON_SECRET: PROD.APP_CRON_SECRET, APP_JWT_SECRET_KEY: PROD.APP_JWT_SECRET_KEY, APP_PORT: '0' });
    expect(config.cronSecret).toBe(PROD.APP_CRON_SECRET);
    expect(config.port).toBe(0);
    expect(warnings).toEqual([]);
  });

  test('empty values count as unset and non-APP_ variables are ignored', () => {
    const { config } = loadConfig({ APP_PORT: '', PORT: '1234', HOME: '/root' });
    expect(config.port).toBe(8000);
  });

  test('prod with nothing else lists every missing setting in one error', () => {
    const error = configError({ APP_ENVIRONMENT: 'prod' });
    for (const key of PROD_REQUIRED) expect(error.message).toContain(key);
    expect(error.problems).toHaveLength(PROD_REQUIRED.length);
  });

  test('beta requires the same settings as prod', () => {
    const error = configError({ APP_ENVIRONMENT: 'beta' });
    for (const key of PROD_REQUIRED) expect(error.message).toContain(key);
  });

  test('APP_ENCRYPTION_KEY must be 32 bytes of base64, and is never echoed', () => {
    for (const bad of [Buffer.alloc(16).toString('base64'), 'not base64 at all!', Buffer.alloc(33).toString('base64')]) {
      const error = configError({ ...PROD, APP_ENCRYPTION_KEY: bad });
      expect(error.problems).toEqual(['APP_ENCRYPTION_KEY must be 32 bytes, base64-encoded']);
      expect(error.message).not.toContain(bad);
    }
    expect(loadConfig({}).config.encryptionKey).toBeUndefined();
    expect(loadConfig(PROD).config.encryptionKey).toBe(PROD.APP_ENCRYPTION_KEY);
  });

  test('APP_NAME and APP_EMAIL_RETENTION_DAYS have their defaults', () => {
    expect(loadConfig({}).config).toMatchObject({ appName: 'tenantkit', emailRetentionDays: 7 });
    expect(loadConfig({ APP_NAME: 'Acme', APP_EMAIL_RETENTION_DAYS: '30' }).config).toMatchObject({ appName: 'Acme', emailRetentionDays: 30 });
  });

  test('APP_AUDIT_RETENTION_DAYS: 365 by default, 1..3650 days', () => {
    expect(loadConfig({}).config.auditRetentionDays).toBe(365);
    expect(loadConfig({ APP_AUDIT_RETENTION_DAYS: '2555' }).config.auditRetentionDays).toBe(2555);
    for (const bad of ['0', '3651', '30d', '-1']) {
      expect(configError({ APP_AUDIT_RETENTION_DAYS: bad }).problems.some((problem) => problem.startsWith('APP_AUDIT_RETENTION_DAYS'))).toBe(true);
    }
  });

  test('a complete prod configuration loads without warnings', () => {
    const { config, warnings } = loadConfig(PROD);
    expect(config.environment).toBe('prod');
    expect(warnings).toEqual([]);
  });

  test('prod refuses the stub mailer, which writes live links to the log; beta and dev accept it', () => {
    expect(configError({ ...PROD, APP_EMAIL_PROVIDER: 'stub' }).problems).toEqual([
      'APP_EMAIL_PROVIDER=stub is refused in prod: it writes live links to the log',
    ]);
    expect(loadConfig({ ...PROD, APP_ENVIRONMENT: 'beta', APP_EMAIL_PROVIDER: 'stub' }).config.email).toEqual({ provider: 'stub' });
  });

  test('secret values are never echoed, even when they are invalid', () => {
    const shortSecret = 'Sh0rt-S3cr3t!';
    const error = configError({
      APP_ENVIRONMENT: 'prod',
      APP_JWT_SECRET_KEY: shortSecret,
      APP_CRON_SECRET: shortSecret,
      APP_STRIPE_API_KEY: 'sk_test_stripe-key-value',
      APP_DATABASE_URL: 'mysql://user:db-password-value@host/db',
    });
    expect(error.message).toMatch(/APP_JWT_SECRET_KEY must be at least 16 characters/);
    expect(error.message).toMatch(/APP_CRON_SECRET must be at least 16 characters/);
    expect(error.message).toMatch(/APP_STRIPE_API_KEY and APP_STRIPE_WEBHOOK_SECRET must be set together/);
    expect(error.message).toMatch(/APP_DATABASE_URL must be a postgres:\/\/ URL/);
    for (const value of [shortSecret, 'sk_test_stripe-key-value', 'db-password-value']) expect(error.message).not.toContain(value);
  });

  test('bad values are listed together, with the missing settings', () => {
    const dev = configError({ APP_PORT: 'abc', APP_MODE: 'x', APP_PASSWORD_HASH_COST: '3' });
    expect(dev.problems).toEqual(
      expect.arrayContaining(['APP_PORT must be a whole number', 'APP_MODE must be b2c or b2b', 'APP_PASSWORD_HASH_COST must be at least 4']),
    );
    expect(dev.problems).toHaveLength(3);

    const prod = configError({ APP_ENVIRONMENT: 'prod', APP_PORT: 'abc', APP_MODE: 'x' });
    expect(prod.problems).toEqual(expect.arrayContaining(['APP_PORT must be a whole number', 'APP_MODE must be b2c or b2b']));
    for (const key of PROD_REQUIRED) expect(prod.message).toContain(key);
  });

  test('Redis key prefix, migrate-on-start and the prune interval are parsed and checked', () => {
    const { config } = loadConfig({ APP_BULLMQ_PREFIX: 'staging-eu', APP_MIGRATE_ON_START: 'true', APP_SESSION_PRUNE_INTERVAL_SECONDS: '60' });
    expect(config).toMatchObject({ redisKeyPrefix: 'staging-eu', migrateOnStart: true, sessionPruneIntervalSeconds: 60 });
    const bad = configError({ APP_BULLMQ_PREFIX: 'a b{x}', APP_MIGRATE_ON_START: 'yes', APP_SESSION_PRUNE_INTERVAL_SECONDS: '0' });
    expect([...bad.problems].sort()).toEqual([
      'APP_BULLMQ_PREFIX must be 1..64 of A-Z a-z 0-9 _ . -',
      'APP_MIGRATE_ON_START must be true or false',
      'APP_SESSION_PRUNE_INTERVAL_SECONDS must be at least 1',
    ]);
  });

  test('email sign-in links are on unless APP_EMAIL_LINK_SIGNIN=false, and nothing but true or false is taken', () => {
    expect(loadConfig({}).config.emailLinkSignIn).toBe(true);
    expect(loadConfig({ APP_EMAIL_LINK_SIGNIN: 'false' }).config.emailLinkSignIn).toBe(false);
    expect(loadConfig({ APP_EMAIL_LINK_SIGNIN: 'true' }).config.emailLinkSignIn).toBe(true);
    expect(configError({ APP_EMAIL_LINK_SIGNIN: 'off' }).problems).toEqual(['APP_EMAIL_LINK_SIGNIN must be true or false']);
  });

  test('passkeys: the rp id and origins default to APP_BASE_WEB_URL; an origin off the rp id stops startup', () => {
    expect(loadConfig({}).config.webauthn).toEqual({ rpId: 'localhost', origins: ['http://localhost:5173'] });
    expect(loadConfig({ APP_WEBAUTHN_RP_ID: 'example.com', APP_WEBAUTHN_ORIGINS: 'https://example.com,https://app.example.com/' }).config.webauthn).toEqual({
      rpId: 'example.com',
      origins: ['https://example.com', 'https://app.example.com'],
    });
    expect(configError({ APP_WEBAUTHN_RP_ID: 'example.com', APP_WEBAUTHN_ORIGINS: 'https://notexample.com' }).problems).toEqual([
      'APP_WEBAUTHN_ORIGINS https://notexample.com is not on the rp id example.com (APP_WEBAUTHN_RP_ID) or a subdomain of it',
    ]);
  });

  test('an email provider needs its own settings', () => {
    const { APP_POSTMARK_API_KEY: _k, APP_POSTMARK_SENDER_ADDRESS: _a, APP_POSTMARK_SENDER_NAME: _n, ...withoutPostmark } = PROD;
    const error = configError(withoutPostmark);
    expect(error.problems).toEqual([
      'APP_POSTMARK_API_KEY is required when APP_EMAIL_PROVIDER=postmark',
      'APP_POSTMARK_SENDER_ADDRESS is required when APP_EMAIL_PROVIDER=postmark',
      'APP_POSTMARK_SENDER_NAME is required when APP_EMAIL_PROVIDER=postmark',
    ]);
  });

  test('outside dev, CORS defaults to the origin of APP_BASE_WEB_URL', () => {
    const { config } = loadConfig({ ...PROD, APP_ENVIRONMENT: 'beta', APP_BASE_WEB_URL: 'https://web.example.test:8443/app/' });
    expect(config.corsOrigins).toEqual(['https://web.example.test:8443']);
    expect(config.baseWebUrl).toBe('https://web.example.test:8443/app');
  });

  test('CORS origins must be origins and base URLs must be http(s)', () => {
    const problems = configError({ ...PROD, APP_CORS_ORIGINS: 'https://ok.example.test,notanorigin', APP_BASE_API_URL: 'ftp://api.example.test' }).problems;
    expect(problems.some((p) => p.startsWith('APP_CORS_ORIGINS'))).toBe(true);
    expect(problems.some((p) => p.startsWith('APP_BASE_API_URL'))).toBe(true);
    expect(() => loadConfig({ ...PROD, APP_CORS_ORIGINS: 'https://a.example.test/, http://localhost:3000' })).not.toThrow();
  });

  test('in dev the API URL follows APP_PORT, so pagination links point back at this process', () => {
    expect(loadConfig({ APP_PORT: '9123' }).config.baseApiUrl).toBe('http://localhost:9123');
    expect(loadConfig({ APP_PORT: '9123', APP_BASE_API_URL: 'http://api.local:1' }).config.baseApiUrl).toBe('http://api.local:1');
  });

  test('APP_CORS_ORIGINS overrides the default in every environment', () => {
    const origins = ' https://a.example.test, https://b.example.test/ ,';
    expect(loadConfig({ ...PROD, APP_CORS_ORIGINS: origins }).config.corsOrigins).toEqual(['https://a.example.test', 'https://b.example.test']);
    expect(loadConfig({ APP_CORS_ORIGINS: 'https://a.example.test' }).config.corsOrigins).toEqual(['https://a.example.test']);
  });

  test('optional integrations are enabled only when their settings are complete', () => {
    const { config } = loadConfig({
      APP_IDP_CLIENT_ID: 'client',
      APP_IDP_CLIENT_SECRET: 'client-secret',
      APP_STRIPE_API_KEY: 'sk',
      APP_STRIPE_WEBHOOK_SECRET: 'whsec',
    });
    expect(config.idp).toEqual({ issuer: 'https://accounts.google.com', clientId: 'client', clientSecret: 'client-secret' });
    expect(config.stripe).toEqual({ apiKey: 'sk', webhookSecret: 'whsec' });
    expect(configError({ APP_IDP_CLIENT_ID: 'client' }).problems).toEqual(['APP_IDP_CLIENT_ID and APP_IDP_CLIENT_SECRET must be set together']);
  });
});
