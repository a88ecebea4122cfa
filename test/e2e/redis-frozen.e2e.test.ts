import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { requireRedis, TEST_REDIS_URL } from '../support/postgres';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

const redisUp = await requireRedis();

/** The bound the reliability page promises for a Redis that is down or frozen, and a margin for a busy CI machine. */
const PROMISED_MS = 500;
const MARGIN_MS = 250;

/**
 * A frozen Redis (it accepts and never answers: SIGSTOP, a wedged proxy) under the shared rate
 * limits. A login asks the limits three times (its route's limit, the account throttle, then a
 * failure or a reset); each question must not wait out the command time-out, or a login pays it
 * three times over. The added latency is measured against logins with Redis answering, in the
 * same run.
 */
describe.skipIf(!redisUp)('login with the rate-limit Redis frozen', () => {
  let proxy: TcpProxy;
  let app: TestApp;
  let client = 0;

  beforeAll(async () => {
    const target = new URL(TEST_REDIS_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    app = await startTestApp({
      APP_RATE_LIMIT_STORAGE_URI: `redis://127.0.0.1:${proxy.port}`,
      APP_BULLMQ_PREFIX: `tk-test-${randomUUID()}`,
      APP_LOG_LEVEL: 'warn',
    });
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
  });

  async function timedLogin(): Promise<{ ms: number; status: number }> {
    client += 1;
    const started = performance.now();
    const res = await app.request('/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.18.40.${client}` },
      body: JSON.stringify({ email: `frozen-${client}@example.com`, password: 'wrong password' }),
    });
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  it(`adds at most ${PROMISED_MS} ms to a login, from the first request of the freeze on`, { timeout: 60_000 }, async () => {
    for (let i = 0; i < 3; i += 1) await timedLogin(); // warm-up
    const healthy: number[] = [];
    for (let i = 0; i < 7; i += 1) healthy.push((await timedLogin()).ms);

    const linesBefore = app.logs().length;
    proxy.mode = 'blackhole';
    const frozen: Array<{ ms: number; status: number }> = [];
    for (let i = 0; i < 7; i += 1) frozen.push(await timedLogin());

    const added = Math.max(...frozen.map((login) => login.ms)) - median(healthy);
    console.info(
      `[redis-frozen] login median with Redis ${median(healthy).toFixed(0)} ms; frozen: ${frozen.map((l) => l.ms.toFixed(0)).join(', ')} ms; added at most ${added.toFixed(0)} ms`,
    );
    expect(frozen.map((login) => login.status)).toEqual(Array(frozen.length).fill(401));
    expect(added).toBeLessThan(PROMISED_MS + MARGIN_MS);
    // Only the first request of the freeze waits for Redis; the rest decide in memory at once.
    expect(median(frozen.map((login) => login.ms)) - median(healthy)).toBeLessThan(100);
    expect(app.logs().slice(linesBefore).filter((line) => String(line.msg).startsWith('rate limits: Redis unreachable'))).toHaveLength(1);
  });
});
