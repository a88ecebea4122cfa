import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_FLOWS, API_KEY_FLOWS } from '../builders/audited-account-flows';
import { AUDITED_FLOWS, memoryAuditWorld, type AuditedFlow, type FlowSecrets } from '../builders/audited-flows';
import { PASSKEY_FLOWS } from '../builders/audited-passkey-flows';

/**
 * Never a secret in an audit event: random passwords, tokens, codes and keys go through every
 * audited flow (one row of the table each), and the whole log, serialized, is searched for them,
 * for the tokens and codes the service made during the run, and for the stored hashes of the
 * tokens. A flow added to the table is covered without touching this file.
 */
const FLOWS: AuditedFlow[] = [...AUDITED_FLOWS, ...ACCOUNT_FLOWS, ...PASSKEY_FLOWS, ...API_KEY_FLOWS];

const alphabet = (chars: string, minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom(...chars), { minLength, maxLength }).map((picked) => picked.join(''));
const PRINTABLE = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%&*+-=?@^_~';
const BASE64URL = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';

/**
 * Within the password policy (8..64 code points), long enough not to turn up in an event by
 * chance, and then anything a user may type: accents, scripts, emoji, quotes, control characters.
 */
const password = fc
  .tuple(alphabet(PRINTABLE, 12, 40), fc.string({ maxLength: 24, unit: 'grapheme' }))
  .map(([head, tail]) => head + tail)
  .filter((typed) => [...typed].length <= 64);

const secrets: fc.Arbitrary<FlowSecrets> = fc.record({
  password,
  newPassword: password,
  sessionToken: alphabet(BASE64URL, 43, 43),
  totpCode: alphabet('0123456789', 6, 6),
  recoveryCode: alphabet('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 10, 10),
  invitationToken: alphabet(BASE64URL, 43, 43),
  resetToken: alphabet(BASE64URL, 43, 43),
  apiKey: alphabet(BASE64URL, 43, 43).map((body) => `tk_${body}`),
});

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** How `value` reads inside serialized JSON (a quote or a control character is escaped there). */
const asInJson = (value: string) => JSON.stringify(value).slice(1, -1);

describe('never a secret in an audit event', () => {
  for (const flow of FLOWS) {
    it(`${flow.name}: ${flow.actions.join(', ')}`, async () => {
      await fc.assert(
        fc.asyncProperty(secrets, async (thrown) => {
          fc.pre(thrown.password !== thrown.newPassword);
          const world = memoryAuditWorld();
          const prepared = await flow.prepare(world, thrown);
          await prepared.run();
          await world.memory?.failedSignIns.flush();

          const events = await world.allEvents();
          // The flow did record what it records: the search below is over a log that holds it.
          expect(events.map((event) => event.action)).toEqual(expect.arrayContaining(flow.actions));
          const log = JSON.stringify(events);
          const forbidden = [...Object.values(thrown), ...(prepared.revealed ?? [])];
          for (const secret of [...forbidden, ...forbidden.map(sha256)]) {
            expect(log.includes(asInJson(secret)), `the log holds ${secret}`).toBe(false);
          }
        }),
        { numRuns: 12 },
      );
    });
  }
});
