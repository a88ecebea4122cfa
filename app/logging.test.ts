import { describe, expect, it } from 'vitest';
import { createLogger, redactSecrets } from './logging';

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
