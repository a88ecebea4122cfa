import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig, SETTING_NAMES } from '../../app/config/config';
import { createAppLogger } from '../../app/logging';

const read = (path: string) => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('settings files', () => {
  it('.env.example and docs/configuration.md name every setting, and .env.example sets none', async () => {
    const example = await read('.env.example');
    const docs = await read('docs/configuration.md');
    expect(SETTING_NAMES.length).toBeGreaterThan(30);
    for (const name of SETTING_NAMES) {
      expect(example, name).toMatch(new RegExp(`^# ${name}=`, 'm'));
      expect(docs, name).toContain(`\`${name}\``);
    }
    // Copied as it is, it changes nothing: every line is a comment.
    expect(example.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'))).toEqual([]);
  });

  it('the commented defaults in .env.example are the defaults', async () => {
    const example = await read('.env.example');
    const uncommented = Object.fromEntries(
      [...example.matchAll(/^# (APP_\w+)=(.+)$/gm)]
        .map((m) => [m[1]!, m[2]!] as const)
        .filter(([name]) => !['APP_DATABASE_URL', 'APP_REDIS_URL'].includes(name)),
    );
    expect(loadConfig(uncommented).config).toEqual({ ...loadConfig({}).config, cronSecret: expect.any(String), jwtSecretKey: expect.any(String) });
  });
});

describe('log format', () => {
  /** The first line the logger writes for one entry. */
  const firstLine = async (config: Parameters<typeof createAppLogger>[0], isTty: boolean): Promise<string> => {
    const chunks: string[] = [];
    const stream = new Writable({
      write: (chunk, _encoding, done) => {
        chunks.push(String(chunk));
        done();
      },
    });
    createAppLogger(config, { isTty, stream }).info({ to: 'a@example.com' }, 'hello');
    await new Promise((resolve) => setTimeout(resolve, 20));
    return chunks.join('').split('\n')[0]!;
  };
  const json = (line: string) => JSON.parse(line) as Record<string, unknown>;

  it('auto is pretty in dev on a terminal, JSON otherwise; pretty and json force it', async () => {
    const auto = { logLevel: 'info', logFormat: 'auto' as const };
    expect(await firstLine({ ...auto, environment: 'dev' }, true)).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] .*INFO.*: .*hello/);
    expect(json(await firstLine({ ...auto, environment: 'dev' }, false))).toMatchObject({ msg: 'hello', to: 'a@example.com' });
    expect(json(await firstLine({ ...auto, environment: 'prod' }, true))).toMatchObject({ msg: 'hello' });
    expect(await firstLine({ ...auto, logFormat: 'pretty', environment: 'prod' }, false)).toMatch(/INFO: hello$/);
    expect(json(await firstLine({ ...auto, logFormat: 'json', environment: 'dev' }, true))).toMatchObject({ msg: 'hello' });
  });
});
