import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { requirePostgres } from '../support/postgres';

/**
 * The guides' commands, run as written: every ```bash block of docs/getting-started.md, of
 * docs/api-keys.md and of the README, in order, in one working directory (so cookie files carry over), against a fresh
 * server. `http://localhost:8000` becomes the test server's address (tokens come from its dev
 * mailbox, as the guides show); `npm run cli` runs against the server's database. curl runs with
 * `--fail-with-body`, so an error answer fails the block.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const postgres = await requirePostgres();

interface Block {
  language: string;
  code: string;
}

function codeBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ language: m[1]!, code: m[2]! }));
}

function prepare(app: TestApp, code: string): string {
  return code
    .split('\n')
    .map((line) => line.replaceAll('http://localhost:8000', app.url).replace(/\bnpm run cli\b/, `npm --prefix '${ROOT}' run cli`))
    .join('\n');
}

function run(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const prelude = 'set -euo pipefail\ncurl() { command curl --silent --show-error --fail-with-body --max-time 20 "$@"; echo; }\n';
  const child = spawn('bash', ['-c', prelude + script], { cwd, env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

describe.skipIf(!postgres).each(['docs/getting-started.md', 'README.md', 'docs/audit-log.md', 'docs/api-keys.md'])('%s, command by command', (file) => {
  let app: TestApp;
  let cwd: string;
  let blocks: Block[];

  beforeAll(async () => {
    blocks = codeBlocks(await readFile(join(ROOT, file), 'utf8'));
    app = await startTestApp();
    cwd = await mkdtemp(join(tmpdir(), 'tk-guide-'));
  });
  afterAll(async () => {
    await app?.close();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  it('has no curl command outside a block this test runs', () => {
    const untested = blocks.filter((block) => block.language !== 'bash' && /\bcurl\b/.test(block.code));
    expect(untested).toEqual([]);
    expect(blocks.filter((block) => block.language === 'bash').length).toBeGreaterThan(0);
  });

  it('runs every bash block, in order, without an error answer', async () => {
    const outputs: string[] = [];
    for (const block of blocks.filter((b) => b.language === 'bash')) {
      const script = prepare(app, block.code);
      const result = await run(script, cwd, app.db ? { APP_DATABASE_URL: app.db.url, APP_PASSWORD_HASH_COST: '4' } : {});
      expect(result.code, `${file}: this block failed:\n${block.code}\n--- output ---\n${result.output}`).toBe(0);
      outputs.push(result.output);
    }
    const all = outputs.join('\n');
    expect(all).not.toMatch(/HTTP\/1\.1 [45]\d\d/);
    if (file === 'docs/getting-started.md') {
      expect(all).toContain('HTTP/1.1 201 Created');
      expect(all).toMatch(/Location: \/projects\/\d+/i);
      expect(all).toMatch(/Link: <[^>]+\/projects\?limit=1&cursor=[^>]+>; rel="next"/i);
      expect(all).toContain('"email":"grace@example.com"');
      expect(all).toMatch(/"name":"System"|"status":"active"/);
    } else if (file === 'docs/api-keys.md') {
      expect(all).toMatch(/"key":"tk_[A-Za-z0-9_-]{43}"/);
      expect(all).toContain('HTTP/1.1 201 Created');
      expect(all).toContain('"name":"Built by CI"');
      expect(all).toMatch(/"last_used_at":"\d{4}-/);
      expect(all).toContain('after revocation: 401');
    } else if (file === 'docs/audit-log.md') {
      // Ada's sign-ins, listed, exported as NDJSON and seen by the sys_admin.
      expect(all).toMatch(/"action":"login\.succeeded","actor":\{"type":"user","id":\d+,"email":"ada@example\.com"/);
      expect(all).toMatch(/^link: <[^>]+\/audit-events\?limit=1&cursor=[^>]+>; rel="next"/im);
      expect(all).toMatch(/^\s*[1-9]\d*$/m);
    } else {
      expect(all).toContain('"email":"');
    }
  }, 240_000);
});
