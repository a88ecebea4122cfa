import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { PasswordHasher } from '../../core/accounts/crypto.port';

export const MIN_BCRYPT_COST = 4;
export const MAX_BCRYPT_COST = 15;

/** `$2a$`/`$2b$`/`$2y$`, a two-digit cost, then 22 salt and 31 hash characters. */
const BCRYPT_HASH = /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/;

/**
 * bcrypt only reads the first 72 bytes of its input: two passwords sharing a 72-byte prefix
 * (18 four-byte emoji are enough) would verify against each other, and the rest of a long
 * passphrase would add nothing. We feed it the SHA-256 of the password instead, base64-encoded:
 * 44 ASCII bytes, never truncated, and free of the NUL bytes that end a C-string in other
 * bcrypt implementations (which is why the raw digest is not used).
 */
const prehash = (password: string): string => createHash('sha256').update(password, 'utf8').digest('base64');

/**
 * bcrypt in a pool of worker threads (piscina), never on the event loop: a hash takes tens of
 * milliseconds of CPU, and concurrent logins hashing there would stall every other request
 * (docs/benchmarks.md, W2). The pool keeps one core for requests: it has
 * `availableParallelism() − 1` threads (at least one) and queues the rest.
 */
export class BcryptPasswordHasher implements PasswordHasher {
  private dummyHash: Promise<string> | undefined;
  private readonly pool: Piscina;

  constructor(
    private readonly cost: number,
    threads = Math.max(1, availableParallelism() - 1),
  ) {
    if (!Number.isInteger(cost) || cost < MIN_BCRYPT_COST || cost > MAX_BCRYPT_COST) {
      throw new RangeError(`bcrypt cost must be an integer from ${MIN_BCRYPT_COST} to ${MAX_BCRYPT_COST}, got ${cost}`);
    }
    this.pool = new Piscina({
      filename: new URL('./bcrypt.worker.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      // Idle threads exit, so a process that stops hashing needs no explicit shutdown to exit.
      idleTimeout: 30_000,
    });
  }

  hash(password: string): Promise<string> {
    return this.pool.run({ input: prehash(password), cost: this.cost }, { name: 'hash' }) as Promise<string>;
  }

  /** Only a lower cost counts: a hash made stronger elsewhere is never weakened back. */
  needsRehash(hash: string): boolean {
    const match = BCRYPT_HASH.exec(hash);
    return match !== null && Number(match[1]) < this.cost;
  }

  /** Stops the worker threads; pending hashes are rejected. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }

  async verify(password: string, hash: string | null): Promise<boolean> {
    if (hash === null) {
      // An unknown account costs one full comparison, like a wrong password does.
      await this.compare(password, await this.dummy());
      return false;
    }
    // A malformed stored hash is a data problem, not a reason to fail the login with a 500.
    const match = BCRYPT_HASH.exec(hash);
    if (!match) return false;
    try {
      if (Number(match[1]) >= this.cost) return await this.compare(password, hash);
      // A hash made at a lower cost compares in a fraction of the time (cost 4: 7 ms against
      // 80 ms), which tells an attacker which accounts are old. Spend a comparison at this
      // hasher's cost as well, so such an account answers no faster than any other.
      const [ok] = await Promise.all([this.compare(password, hash), this.dummy().then((dummy) => this.compare(password, dummy))]);
      return ok;
    } catch {
      return false;
    }
  }

  private compare(password: string, hash: string): Promise<boolean> {
    return this.pool.run({ input: prehash(password), hash }, { name: 'compare' }) as Promise<boolean>;
  }

  /** Made once, at this hasher's cost, so the dummy comparison takes as long as a real one. */
  private dummy(): Promise<string> {
    this.dummyHash ??= this.hash('tenantkit-dummy-password').catch((error: unknown) => {
      this.dummyHash = undefined;
      throw error;
    });
    return this.dummyHash;
  }
}
