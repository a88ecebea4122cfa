import type * as NodeFs from 'node:fs';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TurnBatchedDestination } from './log-destination';

/** `writeSync` as the destination sees it: the real one unless a test plants what the descriptor does next. */
const { next, calls, real } = vi.hoisted(() => ({
  next: [] as Array<(fd: number, data: string | Buffer) => number>,
  calls: [] as number[],
  real: { writeSync: undefined as unknown as (fd: number, data: Buffer) => number },
}));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  real.writeSync = fs.writeSync;
  return {
    ...fs,
    writeSync: (fd: number, data: string | Buffer) => {
      calls.push(fd);
      const planted = next.shift();
      return planted ? planted(fd, data) : fs.writeSync(fd, data as string);
    },
  };
});

const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const errno = (code: string) => Object.assign(new Error(code), { code });

describe('TurnBatchedDestination', () => {
  let dir: string;
  let fd: number;
  const written = () => readFileSync(join(dir, 'log'), 'utf8');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'log-destination-'));
    fd = openSync(join(dir, 'log'), 'a');
    next.length = 0;
    calls.length = 0;
  });
  afterEach(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes a turn's lines together, in order, once the turn ends", async () => {
    const destination = new TurnBatchedDestination(fd);
    destination.write('{"a":1}\n');
    destination.write('{"b":"é"}\n');
    expect(written()).toBe('');
    await endOfTurn();
    expect(written()).toBe('{"a":1}\n{"b":"é"}\n');
    expect(calls).toHaveLength(1);
    destination.write('{"c":3}\n');
    await endOfTurn();
    expect(written()).toBe('{"a":1}\n{"b":"é"}\n{"c":3}\n');
  });

  it('writes what is pending at once on flushSync (on exit)', () => {
    const destination = new TurnBatchedDestination(fd);
    destination.write('{"last":true}\n');
    destination.flushSync();
    expect(written()).toBe('{"last":true}\n');
  });

  it('does not hold a burst until the turn ends', () => {
    const destination = new TurnBatchedDestination(fd);
    const line = `{"x":"${'y'.repeat(1000)}"}\n`;
    for (let i = 0; i < 100; i++) destination.write(line);
    expect(written().length).toBeGreaterThanOrEqual(64 * 1024);
    destination.flushSync();
    expect(written().length).toBe(line.length * 100);
  });

  it('finishes a write the descriptor took in part, and waits out a full pipe (EAGAIN), losing nothing', async () => {
    const destination = new TurnBatchedDestination(fd);
    next.push(
      () => {
        throw errno('EAGAIN');
      },
      (target, data) => real.writeSync(target, Buffer.from(data as string).subarray(0, 5)),
    );
    destination.write('{"a":"é"}\n');
    destination.write('{"b":2}\n');
    await endOfTurn();
    expect(written()).toBe('{"a":"é"}\n{"b":2}\n');
    expect(calls).toHaveLength(3);
  });

  it('stops logging, without throwing, once the reader has gone (EPIPE)', async () => {
    const destination = new TurnBatchedDestination(fd);
    next.push(() => {
      throw errno('EPIPE');
    });
    destination.write('{"lost":1}\n');
    await endOfTurn();
    destination.write('{"lost":2}\n');
    destination.flushSync();
    expect(calls).toHaveLength(1);
  });

  it('throws any other write error', () => {
    const destination = new TurnBatchedDestination(fd);
    next.push(() => {
      throw errno('EBADF');
    });
    destination.write('{"a":1}\n');
    expect(() => destination.flushSync()).toThrow('EBADF');
  });
});
