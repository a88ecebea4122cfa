import fc from 'fast-check';

/**
 * A model-based property for a contract: each fast-check run gets a store of its own from
 * `setup` (torn down whatever happens) and checks one random command sequence against it.
 */
export function assertOnFreshStores<Harness extends { teardown(): Promise<void> }, Command>(
  setup: () => Promise<Harness>,
  commands: fc.Arbitrary<Command[]>,
  check: (harness: Harness, commands: Command[]) => Promise<void>,
  numRuns = 25,
): Promise<void> {
  return fc.assert(
    fc.asyncProperty(commands, async (sequence) => {
      const run = await setup();
      try {
        await check(run, sequence);
      } finally {
        await run.teardown();
      }
    }),
    { numRuns },
  );
}
