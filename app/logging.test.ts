import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { createLogger, infoLineWriter, redactSecrets } from './logging';

function capture(): { lines: Array<Record<string, unknown>>; destination: { write(chunk: string): void } } {
  const lines: Array<Record<string, unknown>> = [];
  return { lines, destination: { write: (chunk: string) => lines.push(JSON.parse(chunk) as Record<string, unknown>) } };
}

describe('log redaction', () => {
  it('censors secret-named fields at the top level and one level down, and nothing else', () => {
    const { lines, destination } = capture();
    const logger = createLogger('info', destination);
    logger.info(
      {
        password: 'p1',
        token: 't1',
        headers: { cookie: 'session_id=abc', authorization: 'Bearer x', accept: 'json' },
        body: { new_password: 'p2', current_password: 'p3', email: 'a@example.com', nested: { secret: 'deep' } },
        provider: { apiKey: 'k1', secret: 's1' },
        list: [{ password: 'in-array' }],
        user_id: 7,
      },
      'hello',
    );
    expect(lines[0]).toMatchObject({
      msg: 'hello',
      password: '[redacted]',
      token: '[redacted]',
      headers: { cookie: '[redacted]', authorization: '[redacted]', accept: 'json' },
      body: { new_password: '[redacted]', current_password: '[redacted]', email: 'a@example.com', nested: { secret: 'deep' } },
      provider: { apiKey: '[redacted]', secret: '[redacted]' },
      list: [{ password: 'in-array' }],
      user_id: 7,
    });
  });

  it("censors a child logger's bindings too", () => {
    const { lines, destination } = capture();
    createLogger('info', destination).child({ request_id: 'r1', token: 't' }).info('x');
    expect(lines[0]).toMatchObject({ request_id: 'r1', token: '[redacted]' });
  });

  it("never changes the caller's objects, and keeps an error's message and stack", () => {
    const headers = { cookie: 'c' };
    const entry = { headers, ok: 1 };
    const out = redactSecrets(entry);
    expect(out).toEqual({ headers: { cookie: '[redacted]' }, ok: 1 });
    expect(entry.headers.cookie).toBe('c');
    const error = Object.assign(new Error('boom'), { token: 't' });
    const { err } = redactSecrets({ err: error }) as { err: Error & { token: string } };
    expect(err).toBeInstanceOf(Error);
    expect([err.message, err.token, err.stack]).toEqual(['boom', '[redacted]', error.stack]);
    expect(error.token).toBe('t');
  });

  it('returns an entry without secrets as it is', () => {
    const entry = { method: 'GET', path: '/projects', status: 200 };
    expect(redactSecrets(entry)).toBe(entry);
  });
});

describe('log time', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the ISO 8601 time of the line, to the millisecond, across seconds and days', () => {
    const { lines, destination } = capture();
    const logger = createLogger('info', destination);
    const times = [Date.UTC(2026, 10, 26, 23, 59, 59, 999), Date.UTC(2026, 10, 27, 0, 0, 0, 0), Date.UTC(2026, 10, 27, 0, 0, 0, 7), Date.UTC(2026, 10, 27, 0, 0, 0, 58), Date.UTC(2026, 10, 27, 0, 0, 1, 300), Date.UTC(2027, 0, 1, 12, 30, 0, 5)];
    vi.useFakeTimers();
    for (const time of times) {
      vi.setSystemTime(time);
      logger.info('tick');
    }
    expect(lines.map((line) => line.time)).toEqual(times.map((time) => new Date(time).toISOString()));
  });
});

describe('infoLineWriter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const raw = () => {
    const lines: string[] = [];
    return { lines, destination: { write: (chunk: string) => lines.push(chunk) } };
  };

  it("writes pino's line for the same fields, the logger's bindings and message key included", () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 10, 27, 1, 2, 3, 4));
    for (const make of [
      (d: { write(chunk: string): void }) => createLogger('info', d),
      (d: { write(chunk: string): void }) => createLogger('info', d).child({ request_id: 'r"1' }),
      (d: { write(chunk: string): void }) => pino({ messageKey: 'message', base: null }, d),
    ]) {
      const ours = raw();
      const pinos = raw();
      infoLineWriter(make(ours.destination), 'done "now"')!(',"a":1,"b":"x"');
      make(pinos.destination).info({ a: 1, b: 'x' }, 'done "now"');
      expect(ours.lines).toEqual(pinos.lines);
    }
  });

  it('declines a logger whose lines it could not write as pino would', () => {
    const destination = raw().destination;
    expect(infoLineWriter(pino({ mixin: () => ({ extra: 1 }) }, destination), 'x')).toBeUndefined();
    expect(infoLineWriter(pino({ msgPrefix: '[p] ' }, destination), 'x')).toBeUndefined();
    expect(infoLineWriter(pino({ nestedKey: 'payload' }, destination), 'x')).toBeUndefined();
    expect(infoLineWriter(pino({ hooks: { streamWrite: (s) => s } }, destination), 'x')).toBeUndefined();
    expect(infoLineWriter(pino({}, pino.multistream([{ stream: destination }])), 'x')).toBeUndefined();
  });
});

describe('the process logger on exit', () => {
  // What `npm start` does after a graceful stop: log the last line, flush on `exit`, exit at once,
  // here after a burst that a terminal cannot take in at once. `script` gives the process a
  // pseudo-terminal for stdout. pino-pretty's own stream held lines back while its writer waited
  // for the terminal, and those were lost at exit.
  const lastLines = (logFormat: 'pretty' | 'json') => {
    const script = `
      import { createAppLogger, flushLogs } from ${JSON.stringify(resolve(import.meta.dirname, 'logging.ts'))};
      const logger = createAppLogger({ logLevel: 'info', logFormat: '${logFormat}', environment: 'dev' });
      process.once('exit', () => flushLogs(logger));
      for (let i = 0; i < 3000; i += 1) logger.info({ i }, 'filler');
      logger.info('stopped');
      process.exit(0);
    `;
    const command = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', script].map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`).join(' ');
    return execFileSync('script', ['-qefc', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, TERM: 'dumb' }, maxBuffer: 64 * 1024 * 1024 })
      .replaceAll('\r', '')
      .replace(/\x1b\[[0-9;]*m/g, '');
  };

  it.each(['pretty', 'json'] as const)('writes every line, the last one included, before exit (%s)', (logFormat) => {
    const out = lastLines(logFormat);
    expect(out.trimEnd().split('\n').at(-1)).toMatch(logFormat === 'pretty' ? /INFO: stopped$/ : /"msg":"stopped"\}$/);
    expect(out.match(/filler/g)).toHaveLength(3000);
  });
});
