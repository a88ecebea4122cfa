import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdpLoginFlowStore } from '../../core/accounts/idp-login-flow-store.port';
import { aTokenHash } from './user-repository.contract';

export interface IdpLoginFlowStoreHarness {
  flows: IdpLoginFlowStore;
  teardown(): Promise<void>;
}

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (offsetMs: number) => new Date(T0 + offsetMs);
const TEN_MINUTES_MS = 600_000;
const secrets = { codeVerifier: 'v'.repeat(43), nonce: 'n'.repeat(43) };

export function describeIdpLoginFlowStoreContract(name: string, setup: () => Promise<IdpLoginFlowStoreHarness>): void {
  describe(`IdpLoginFlowStore contract: ${name}`, () => {
    let h: IdpLoginFlowStoreHarness;

    /** A flow created at T0 that expires `ttlMs` later. */
    const open = async (ttlMs = TEN_MINUTES_MS, flowKeyHash = aTokenHash()) => {
      await h.flows.create({ flowKeyHash, ...secrets, createdAt: at(0), expiresAt: at(ttlMs) });
      return flowKeyHash;
    };

    beforeEach(async () => {
      h = await setup();
    });

    afterEach(async () => {
      await h.teardown();
    });

    it('hands the secrets out once', async () => {
      const key = await open();

      await expect(h.flows.consume(key, at(1_000))).resolves.toEqual(secrets);
      await expect(h.flows.consume(key, at(2_000))).resolves.toBeNull();
    });

    it('knows nothing of an unknown key', async () => {
      await open();

      await expect(h.flows.consume(aTokenHash(), at(0))).resolves.toBeNull();
    });

    it('is usable until one millisecond before expiry, not at it', async () => {
      const early = await open();
      const late = await open();

      await expect(h.flows.consume(early, at(TEN_MINUTES_MS - 1))).resolves.toEqual(secrets);
      await expect(h.flows.consume(late, at(TEN_MINUTES_MS))).resolves.toBeNull();
    });

    it('changes nothing when it refuses an expired flow', async () => {
      const key = await open();

      await expect(h.flows.consume(key, at(TEN_MINUTES_MS + 1))).resolves.toBeNull();
      await expect(h.flows.consume(key, at(1))).resolves.toEqual(secrets);
    });

    it('gives exactly one of many concurrent consumers the flow', async () => {
      const key = await open();

      const results = await Promise.all(Array.from({ length: 8 }, () => h.flows.consume(key, at(1_000))));

      expect(results.filter((result) => result !== null)).toEqual([secrets]);
    });

    it('refuses a key hash that is already stored', async () => {
      const key = await open();

      await expect(h.flows.create({ flowKeyHash: key, ...secrets, createdAt: at(0), expiresAt: at(1) })).rejects.toThrow();
      await expect(h.flows.consume(key, at(1_000))).resolves.toEqual(secrets);
    });

    it('prunes flows expired before the cutoff, consumed or not, oldest first, in bounded batches', async () => {
      const oldest = await open(1_000);
      const consumed = await open(2_000);
      await h.flows.consume(consumed, at(0));
      const third = await open(3_000);
      const atCutoff = await open(4_000);
      const alive = await open(TEN_MINUTES_MS);

      await expect(h.flows.pruneExpiredBefore(at(4_000), 2)).resolves.toBe(2);
      await expect(h.flows.consume(oldest, at(0))).resolves.toBeNull();
      await expect(h.flows.pruneExpiredBefore(at(4_000), 2)).resolves.toBe(1);
      await expect(h.flows.consume(third, at(0))).resolves.toBeNull();
      await expect(h.flows.pruneExpiredBefore(at(4_000), 2)).resolves.toBe(0);
      await expect(h.flows.consume(atCutoff, at(0))).resolves.toEqual(secrets);
      await expect(h.flows.consume(alive, at(0))).resolves.toEqual(secrets);
    });
  });
}
