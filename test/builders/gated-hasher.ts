import type { PasswordHasher } from '../../core/accounts/crypto.port';
import { PlainPasswordHasher } from './accounts';

/**
 * A PasswordHasher whose next `verify` can be held after it has compared, the way a real bcrypt
 * comparison keeps a login busy for ~100 ms after it read the hash. Races with a password change
 * become deterministic: hold, change the password meanwhile, release.
 */
export class GatedPasswordHasher implements PasswordHasher {
  private held: { reached: () => void; released: Promise<void> } | undefined;

  constructor(private readonly inner: PasswordHasher = new PlainPasswordHasher()) {}

  hash(password: string): Promise<string> {
    return this.inner.hash(password);
  }

  needsRehash(hash: string): boolean {
    return this.inner.needsRehash(hash);
  }

  async verify(password: string, hash: string | null): Promise<boolean> {
    const result = await this.inner.verify(password, hash);
    const held = this.held;
    if (held) {
      this.held = undefined;
      held.reached();
      await held.released;
    }
    return result;
  }

  /** The next `verify` waits, its answer computed, until `release()`; `reached` resolves when it waits. */
  holdNextVerify(): { reached: Promise<void>; release(): void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.held = { reached, released };
    return { reached: reachedPromise, release };
  }
}
