import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { requirePostgres, TEST_PG_URL } from '../../test/support/postgres';
import { pooledClientClass, QUERY_TIMEOUT_MESSAGE, type PgClientClass } from './pooled-client';

/**
 * The pool's client class against a real server: every calling form pg offers still answers as
 * pg's own does, a caller's config object is left as it was, server errors lead back to the
 * caller, and the time limit ends a query the server does not answer, once, closing its connection.
 */
const postgres = await requirePostgres();

let pools: pg.Pool[] = [];

function pool(queryTimeoutMs?: number): pg.Pool {
  const created = new pg.Pool({ connectionString: TEST_PG_URL, max: 2 });
  // As MikroORM does: a closed connection's error is reported to the pool's listener, not thrown.
  created.on('connect', (client) => client.on('error', () => undefined));
  created.on('error', () => undefined);
  const withClass = created as unknown as { Client: PgClientClass };
  withClass.Client = pooledClientClass(withClass.Client, queryTimeoutMs);
  pools.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
  pools = [];
});

const ADD: pg.QueryConfig = { name: 'pooled_client_add', text: 'select $1::int + $2::int as sum' };

async function callerThatAwaitsTheQuery(client: pg.PoolClient): Promise<unknown> {
  const result = await client.query('select * from no_such_table_here');
  return result.rows;
}

describe.runIf(postgres)('PooledClient', () => {
  test('the promise form answers rows, objects or arrays, and leaves the caller config as it was', async () => {
    const client = await pool().connect();
    try {
      const config = { ...ADD };
      const before = { ...config };
      expect((await client.query<{ sum: number }>(config, [2, 3])).rows).toEqual([{ sum: 5 }]);
      expect((await client.query<{ sum: number }>(config, [4, 5])).rows).toEqual([{ sum: 9 }]);
      expect(config).toEqual(before);
      expect((await client.query({ ...ADD, rowMode: 'array' }, [1, 1])).rows).toEqual([[2]]);
      expect((await client.query('select 7 as seven')).rows).toEqual([{ seven: 7 }]);
    } finally {
      client.release();
    }
  });

  test('the callback forms answer through the callback, once', async () => {
    const client = await pool(5_000).connect();
    try {
      const withValues = await new Promise<unknown>((resolve, reject) => {
        const returned: unknown = client.query(ADD.text, [20, 22], (error: Error | null, result: pg.QueryResult) => (error ? reject(error) : resolve(result.rows)));
        expect(returned).toBeUndefined();
      });
      expect(withValues).toEqual([{ sum: 42 }]);
      const calls: unknown[] = [];
      await new Promise<void>((resolve) => {
        client.query('select 1 as one', (error: Error | null, result: pg.QueryResult) => {
          calls.push(error ?? result.rows);
          resolve();
        });
      });
      expect(calls).toEqual([[{ one: 1 }]]);
    } finally {
      client.release();
    }
  });

  test('an error from the server rejects with the calling function on its stack', async () => {
    const client = await pool().connect();
    try {
      const error = await callerThatAwaitsTheQuery(client).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as { code?: string }).code).toBe('42P01');
      expect((error as Error).stack).toContain('callerThatAwaitsTheQuery');
      expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      client.release();
    }
  });

  test('a query past the time limit fails with the time-out, once, and its connection is closed', async () => {
    const p = pool(300);
    const client = await p.connect();
    const errors: Error[] = [];
    client.on('error', (error) => errors.push(error));
    const started = performance.now();
    const outcome = await client.query('select pg_sleep(5)').then(
      () => 'answered',
      (e: unknown) => e,
    );
    const elapsed = performance.now() - started;
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toBe(QUERY_TIMEOUT_MESSAGE);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(4_000);
    client.release();
    // The next checkout is a working connection, whatever became of the closed one.
    const next = await p.connect();
    try {
      expect((await next.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      next.release();
    }
    const callbackCalls: unknown[] = [];
    const other = await p.connect();
    try {
      await new Promise<void>((resolve) => {
        other.query('select pg_sleep(5)', (error: Error | null) => {
          callbackCalls.push(error?.message);
          setTimeout(resolve, 300);
        });
      });
    } finally {
      other.release();
    }
    expect(callbackCalls).toEqual([QUERY_TIMEOUT_MESSAGE]);
  });

  test('without a time limit, a slow query is left to finish', async () => {
    const client = await pool().connect();
    try {
      expect((await client.query('select pg_sleep(0.4), 1 as one')).rows[0]).toMatchObject({ one: 1 });
    } finally {
      client.release();
    }
  });
});
