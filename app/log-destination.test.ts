import type * as NodeFs from 'node:fs';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BatchedLogDestination, FLUSH_AFTER_MS } from './log-destination';

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

const afterFlushDelay = () => new Promise<void>((resolve) => setTimeout(resolve, FLUSH_AFTER_MS + 20));
const errno = (code: string) => Object.assign(new Error(code), { code });

describe('BatchedLogDestination', () => {
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

  it('writes the lines together, in order, shortly after the first, and those that come later after their own first', async () => {
    const destination = new BatchedLogDestination(fd);
    destination.write('{"a":1}\n');
    await new Promise<void>((resolve) => setImmediate(resolve));
    destination.write('{"b":"é"}\n');
    expect(written()).toBe('');
    await afterFlushDelay();
    expect(written()).toBe('{"a":1}\n{"b":"é"}\n');
    expect(calls).toHaveLength(1);
    destination.write('{"c":3}\n');
    expect(written()).toBe('{"a":1}\n{"b":"é"}\n');
    await afterFlushDelay();
    expect(written()).toBe('{"a":1}\n{"b":"é"}\n{"c":3}\n');
    expect(calls).toHaveLength(2);
  });

  it('keeps no process alive for its pending lines', async () => {
    const destination = new BatchedLogDestination(fd);
    const active = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = active();
    destination.write('{"a":1}\n');
    // An unref'd timer is not listed among the resources that keep the event loop alive.
    expect(active()).toBe(before);
    destination.flushSync();
  });

  it('writes what is pending at once on flushSync (on exit)', () => {
    const destination = new BatchedLogDestination(fd);
    destination.write('{"last":true}\n');
    destination.flushSync();
    expect(written()).toBe('{"last":true}\n');
  });

  it('writes a burst as it fills the buffer, and a line longer than the buffer on its own, in order', () => {
    const destination = new BatchedLogDestination(fd);
    const line = `{"x":"${'y'.repeat(1000)}"}\n`;
    for (let i = 0; i < 100; i++) destination.write(line);
    expect(written().length).toBeGreaterThanOrEqual(60 * 1024);
    expect(written().length % line.length).toBe(0); // whole lines only
    const long = `{"x":"${'é'.repeat(40_000)}"}\n`;
    destination.write(long);
    destination.write('{"end":1}\n');
    destination.flushSync();
    expect(written()).toBe(line.repeat(100) + long + '{"end":1}\n');
  });

  it('measures a line with many multi-byte characters before it fills the buffer: nothing is cut', () => {
    const destination = new BatchedLogDestination(fd);
    const line = `{"x":"${'€'.repeat(7000)}"}\n`; // 21 KB in UTF-8, 7 K units
    for (let i = 0; i < 10; i++) destination.write(line);
    destination.flushSync();
    expect(written()).toBe(line.repeat(10));
  });

  it('finishes a write the descriptor took in part, and waits out a full pipe (EAGAIN), losing nothing', async () => {
    const destination = new BatchedLogDestination(fd);
    next.push(
      () => {
        throw errno('EAGAIN');
      },
      (target, data) => real.writeSync(target, Buffer.from(data as string).subarray(0, 5)),
    );
    destination.write('{"a":"é"}\n');
    destination.write('{"b":2}\n');
    await afterFlushDelay();
    expect(written()).toBe('{"a":"é"}\n{"b":2}\n');
    expect(calls).toHaveLength(3);
  });

  it('stops logging, without throwing, once the reader has gone (EPIPE)', async () => {
    const destination = new BatchedLogDestination(fd);
    next.push(() => {
      throw errno('EPIPE');
    });
    destination.write('{"lost":1}\n');
    await afterFlushDelay();
    destination.write('{"lost":2}\n');
    destination.flushSync();
    expect(calls).toHaveLength(1);
  });

  it('throws any other write error', () => {
    const destination = new BatchedLogDestination(fd);
    next.push(() => {
      throw errno('EBADF');
    });
    destination.write('{"a":1}\n');
    expect(() => destination.flushSync()).toThrow('EBADF');
  });
});
