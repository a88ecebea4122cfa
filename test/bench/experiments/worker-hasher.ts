/**
 * EXPERIMENT, bench-only: BcryptPasswordHasher's work moved off the event loop into a pool of
 * worker threads (bcryptjs's synchronous API inside each worker), patched onto the production
 * class's prototype so W2 can be measured with the change. Same hashes, same prehash, same cost.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { BcryptPasswordHasher } from '../../../adapters/crypto/bcrypt-password-hasher';

const WORKER = `
const { parentPort } = require('node:worker_threads');
const bcrypt = require('bcryptjs');
parentPort.on('message', ({ id, op, a, b }) => {
  try {
    const value = op === 'hash' ? bcrypt.hashSync(a, b) : bcrypt.compareSync(a, b);
    parentPort.postMessage({ id, value });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});`;

type Job = { id: number; op: 'hash' | 'compare'; a: string; b: string | number; resolve(v: unknown): void; reject(e: Error): void };

class HashPool {
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly running = new Map<number, Job>();
  private next = 0;

  constructor(size: number) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(WORKER, { eval: true });
      worker.unref();
      worker.on('message', ({ id, value, error }: { id: number; value?: unknown; error?: string }) => {
        const job = this.running.get(id)!;
        this.running.delete(id);
        if (error) job.reject(new Error(error));
        else job.resolve(value);
        this.idle.push(worker);
        this.pump();
      });
      this.idle.push(worker);
    }
  }

  run<T>(op: Job['op'], a: string, b: string | number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.next++, op, a, b, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.running.set(job.id, job);
      worker.postMessage({ id: job.id, op: job.op, a: job.a, b: job.b });
    }
  }
}

const prehash = (password: string) => createHash('sha256').update(password, 'utf8').digest('base64');

/** One worker per core but one: the event loop keeps a core for requests. */
export function applyWorkerHasher(size = Math.max(1, availableParallelism() - 1)): void {
  const pool = new HashPool(size);
  const dummies = new Map<number, Promise<string>>();
  const costOf = (hasher: unknown) => (hasher as { cost: number }).cost;
  BcryptPasswordHasher.prototype.hash = function (password: string): Promise<string> {
    return pool.run<string>('hash', prehash(password), costOf(this));
  };
  BcryptPasswordHasher.prototype.verify = async function (password: string, hash: string | null): Promise<boolean> {
    if (hash === null) {
      const cost = costOf(this);
      if (!dummies.has(cost)) dummies.set(cost, pool.run<string>('hash', prehash('tenantkit-dummy-password'), cost));
      await pool.run<boolean>('compare', prehash(password), await dummies.get(cost)!);
      return false;
    }
    if (!/^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/.test(hash)) return false;
    return pool.run<boolean>('compare', prehash(password), hash).catch(() => false);
  };
}
