import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

/**
 * The layer rules of .dependency-cruiser.cjs are only worth something if they fail. The real
 * rule set is run over test/fixtures/boundaries, a miniature tree whose `violates-*` files each
 * break one rule, so no violation is ever written into the real core/.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE = join(ROOT, 'test/fixtures/boundaries');

const EXPECTED: Array<[rule: string, from: string]> = [
  ['core-is-framework-free', 'core/violates-framework-import.ts'],
  ['core-imports-no-outer-layer', 'core/violates-adapter-import.ts'],
  ['core-uses-no-node-io', 'core/violates-node-io.ts'],
  ['core-follows-declared-order', 'core/shared/violates-declared-order.ts'],
  ['core-context-is-declared', 'core/accounts/violates-undeclared-context.ts'],
  ['core-no-circular', 'core/accounts/violates-core-cycle-a.ts'],
  ['adapters-never-import-app', 'adapters/violates-app-import.ts'],
  ['no-production-code-imports-tests', 'app/violates-test-import.ts'],
  ['no-circular', 'adapters/violates-cycle-a.ts'],
];

describe('dependency-cruiser layer rules', () => {
  let ruleNames: string[];
  let result: ICruiseResult;
  let violations: IViolation[];

  beforeAll(async () => {
    const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
    ruleNames = (options.ruleSet?.forbidden ?? []).map((rule) => rule.name ?? '');
    const output = await cruise(['core', 'adapters', 'app', 'test'], { ...options, baseDir: FIXTURE });
    result = output.output as ICruiseResult;
    violations = result.summary.violations;
  }, 60_000);

  test.each(EXPECTED)('%s fails on %s', (rule, from) => {
    const reported = violations.map((v) => `${v.rule.name}: ${v.from}`);
    // A package rule that never fires usually means options.exclude hides node_modules entirely.
    expect(reported, `${rule} did not fire`).toContain(`${rule}: ${from}`);
    expect(result.summary.error).toBeGreaterThan(0);
  });

  test('files that obey the rules are not reported', () => {
    const offenders = violations.map((v) => v.from).filter((from) => !from.split('/').pop()!.startsWith('violates-'));
    expect(offenders).toEqual([]);
    expect(result.modules.map((m) => m.source)).toEqual(expect.arrayContaining(['core/clean.ts', 'core/accounts/account.ts', 'adapters/adapter.ts']));
  });

  test('every rule in the configuration has a fixture that breaks it', () => {
    expect([...new Set(ruleNames)].sort()).toEqual(EXPECTED.map(([rule]) => rule).sort());
  });

  test('the real tree passes `npm run boundaries`', { timeout: 120_000 }, async () => {
    const child = spawn('npm', ['run', '--silent', 'boundaries'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((done, fail) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        fail(new Error('npm run boundaries took longer than 110 s'));
      }, 110_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        done(exitCode);
      });
    });
    expect(code, output).toBe(0);
  });
});
