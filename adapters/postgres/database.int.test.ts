import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, createTestPglite, requirePostgres } from '../../test/support/postgres';
import type { Database, PreparedSql } from './database';
import { epochMillis, parseTimestamp } from './timestamp';
import { DATABASE_TIME_LIMITS } from './orm';

/**
 * Database.transaction on both databases. PGlite is a single session behind a one-connection
 * pool, so the same checks also prove that work inside a transaction never asks the pool for a
 * second connection (which would wait for the acquire time-out) and that concurrent requests
 * queue instead of deadlocking.
 */
const postgres = await requirePostgres();

const BOUND_MS = 30_000;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done within ${ms} ms (deadlock?)`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const backends: Array<[name: string, enabled: boolean, open: () => Promise<{ database: Database; close(): Promise<void> }>]> = [
  ['PostgreSQL', postgres, async () => {
    const db = await createTestDatabase();
    return { database: db.database, close: () => db.drop() };
  }],
  ['PGlite', true, () => createTestPglite()],
];

describe.each(backends)('Database.transaction on %s', (_name, enabled, open) => {
  let database: Database;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (!enabled) return;
    ({ database, close } = await open());
  });

  afterAll(async () => {
    await close?.();
  });

  // billing_event is a plain keyed table: its event_id plays the key, received_at carries a value.
  const insert = (key: string, value = 0) =>
    database.db.insertInto('billing_event').values({ event_id: key, received_at: new Date(value) }).execute();
  const keys = async (prefix: string) =>
    (
      await database.db
        .selectFrom('billing_event')
        .select('event_id')
        .where('event_id', 'like', `${prefix}%`)
        .orderBy('event_id')
        .execute()
    ).map((r) => r.event_id as string);

  const BY_PREFIX = `select event_id as key from billing_event where event_id like $1 || '%' order by event_id`;

  test.skipIf(!enabled)('select (fixed SQL) reads through the pool, and inside a transaction sees its uncommitted writes', async () => {
    await insert('select:a');
    expect(await database.select<{ key: string }>(BY_PREFIX, ['select:'])).toEqual([{ key: 'select:a' }]);
    await expect(
      database.transaction(async () => {
        await insert('select:b');
        expect((await database.select<{ key: string }>(BY_PREFIX, ['select:'])).map((r) => r.key)).toEqual(['select:a', 'select:b']);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await database.select<{ key: string }>(BY_PREFIX, ['select:'])).toEqual([{ key: 'select:a' }]);
  });

  test.skipIf(!enabled)('selectTuples reads rows as arrays in column order, through the pool and inside a transaction alike', async () => {
    const tuples: PreparedSql = { name: 'database_test_tuples', text: `select event_id as key, 7 as n, null as nothing from billing_event where event_id like $1 || '%' order by event_id` };
    await insert('tuples:a');
    expect(await database.selectTuples(tuples, ['tuples:'])).toEqual([['tuples:a', 7, null]]);
    await expect(
      database.transaction(async () => {
        await insert('tuples:b');
        expect(await database.selectTuples(tuples, ['tuples:'])).toEqual([['tuples:a', 7, null], ['tuples:b', 7, null]]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
  });

  test.skipIf(!enabled)('epochMillis reads a timestamptz as the Date parseTimestamp makes of its text, sub-milliseconds dropped', async () => {
    const times = ['2026-11-26 23:00:00.123999+00', '1969-12-31 23:59:59.999500+00', '2000-02-29 12:34:56+05:30', '1970-01-01 00:00:00.000001+00'];
    const rows = await database.select<{ text: string; millis: number }>(
      `select t::timestamptz::text as text, ${epochMillis('t::timestamptz')} as millis from unnest($1::text[]) as t`,
      [times],
    );
    expect(rows.map((row) => new Date(row.millis))).toEqual(rows.map((row) => parseTimestamp(row.text)));
    expect(rows.map((row) => row.millis)).toEqual([1_795_734_000_123, -1, 951_807_896_000, 0]);
  });

  test.skipIf(!enabled)('epochMillis is the exact floor of the epoch in milliseconds for any time, in any session time zone', async () => {
    // Random microsecond times over four centuries, the same times cut to whole milliseconds (the
    // Dates the app writes), a DST change in the session's zone and the ends of a Date's range,
    // against the exact numeric reading.
    const mismatches = await database.transaction(async () => {
      await database.select(`select set_config('TimeZone', 'Europe/Amsterdam', true)`, []);
      return database.select<{ count: number }>(
        `with random as (select timestamptz '1900-01-01 00:00:00+00' + random() * interval '146000 days' as t from generate_series(1, 20000)),
              times as (
                select t from random
                union all select date_trunc('milliseconds', t) from random
                union all select timestamptz '2026-10-25 00:30:00.0005+00' + g * interval '1 minute 0.001 second' from generate_series(0, 180) g
                union all select unnest(array['4713-11-24 00:00:00.0005+00 BC', '275760-09-13 00:00:00+00', '1969-12-31 23:59:59.999999+00']::timestamptz[]))
         select count(*)::int as count from times where ${epochMillis('t')} <> floor(extract(epoch from t) * 1000)::float8`,
        [],
      );
    });
    expect(mismatches).toEqual([{ count: 0 }]);
  });

  test.skipIf(!enabled)('select releases its connection even when the statement fails', async () => {
    const broken = 'select no_such_column from billing_event where event_id = $1';
    for (let i = 0; i < 5; i += 1) await expect(database.select(broken, ['x'])).rejects.toThrow(/no_such_column/);
    expect(await database.select<{ key: string }>(BY_PREFIX, ['select:'])).toEqual([{ key: 'select:a' }]);
  });

  test.skipIf(!enabled)('commits', async () => {
    const result = await database.transaction(async () => {
      await insert('commit:a');
      await insert('commit:b');
      return 'done';
    });
    expect(result).toBe('done');
    expect(await keys('commit:')).toEqual(['commit:a', 'commit:b']);
  });

  test.skipIf(!enabled)('rolls back everything when the work throws, and rethrows', async () => {
    await expect(
      database.transaction(async () => {
        await insert('rollback:a');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await keys('rollback:')).toEqual([]);
  });

  test.skipIf(!enabled)('rolls back when a statement fails', async () => {
    await insert('dup:a');
    await expect(
      database.transaction(async () => {
        await insert('dup:b');
        await insert('dup:a');
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await keys('dup:')).toEqual(['dup:a']);
  });

  test.skipIf(!enabled)('nests: an inner transaction joins the outer one and sees its writes', async () => {
    await database.transaction(async () => {
      const outer = database.db;
      await insert('nest-ok:outer');
      await database.transaction(async () => {
        expect(database.db).toBe(outer);
        expect(await keys('nest-ok:')).toEqual(['nest-ok:outer']);
        await insert('nest-ok:inner');
      });
    });
    expect(await keys('nest-ok:')).toEqual(['nest-ok:inner', 'nest-ok:outer']);

    await expect(
      database.transaction(async () => {
        await insert('nest-fail:outer');
        await database.transaction(() => insert('nest-fail:inner'));
        throw new Error('outer fails after inner succeeded');
      }),
    ).rejects.toThrow('outer fails');
    expect(await keys('nest-fail:')).toEqual([]);
  });

  test.skipIf(!enabled)('outside a transaction, `db` is the pool again', async () => {
    let inside: unknown;
    await database.transaction(async () => {
      inside = database.db;
    });
    expect(database.db).not.toBe(inside);
    await expect(database.ping()).resolves.toBeUndefined();
  });

  test.skipIf(!enabled)('50 concurrent transactions (half rolled back) mixed with 50 reads complete without deadlock', async () => {
    const began = performance.now();
    const transactions = Array.from({ length: 50 }, (_, i) =>
      database.transaction(async () => {
        const key = `conc:${String(i).padStart(2, '0')}`;
        await insert(key, i);
        const [own] = await database.select<{ received_at: Date | string }>('select received_at from billing_event where event_id = $1', [key]);
        expect(new Date(own!.received_at).getTime()).toBe(i);
        await database.ping();
        if (i % 2 === 1) throw new Error(`rollback ${i}`);
      }),
    );
    const reads = Array.from({ length: 50 }, () => database.select('select count(*) as n from billing_event', []));
    const results = await within(Promise.allSettled([...transactions, ...reads]), BOUND_MS);
    console.log(`${_name}: 100 concurrent operations took ${Math.round(performance.now() - began)} ms`);

    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failures.map((f) => (f.reason as Error).message).sort()).toEqual(
      Array.from({ length: 25 }, (_, k) => `rollback ${2 * k + 1}`).sort(),
    );
    expect(await keys('conc:')).toEqual(Array.from({ length: 25 }, (_, k) => `conc:${String(2 * k).padStart(2, '0')}`));
  });

  test.skipIf(!enabled)('50 concurrent locked increments lose no update', async () => {
    await insert('counter', 0);
    const read = () => database.select<{ received_at: Date | string }>(`select received_at from billing_event where event_id = 'counter' for update`, []);
    const increments = Array.from({ length: 50 }, () =>
      database.transaction(async () => {
        const [row] = await read();
        const next = new Date(new Date(row!.received_at).getTime() + 1);
        await database.run(`update billing_event set received_at = $1 where event_id = 'counter'`, [next]);
      }),
    );
    await within(Promise.all(increments), BOUND_MS);
    const [row] = await read();
    expect(new Date(row!.received_at).getTime()).toBe(50);
  });
});

describe.skipIf(!postgres)('Database.selectPatiently on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  /** Takes every pooled connection (the test pool holds 4) and gives them back after `ms`. */
  async function exhaustPool(ms: number): Promise<{ released: Promise<void> }> {
    const pool = (await db.orm.em.getConnection().getNativeClient()) as { connect(): Promise<{ release(): void }> };
    const held = await Promise.all(Array.from({ length: 4 }, () => pool.connect()));
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        for (const client of held) client.release();
        resolve();
      }, ms),
    );
    return { released };
  }

  const HELD_MS = DATABASE_TIME_LIMITS.connectMs + 1_000;

  test('waits for a connection past the pool wait limit, where select gives up', async () => {
    const { released } = await exhaustPool(HELD_MS);
    const impatient = db.database.select('select 1 as one', []).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    const patient = db.database.selectPatiently<{ one: number }>('select 1 as one', []);
    expect(await impatient).toBe('timeout exceeded when trying to connect');
    expect(await patient).toEqual([{ one: 1 }]);
    await released;
  }, 20_000);

  test('gives up once its patience runs out, and never retries an error the statement itself met', async () => {
    const { released } = await exhaustPool(HELD_MS);
    await expect(db.database.selectPatiently('select 1 as one', [], 500)).rejects.toThrow('timeout exceeded when trying to connect');
    await released;
    await expect(db.database.selectPatiently('select 1 / 0 as boom', [])).rejects.toThrow('division by zero');
  }, 20_000);
});
