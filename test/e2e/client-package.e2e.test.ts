import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, CookieJar } from '../../app/client/index';
import { startTestApp, type TestApp } from '../support/app';
import { tokenFromEmail } from '../support/mailbox';
import { requirePostgres } from '../support/postgres';

/**
 * `@tenantkit/client` as a frontend gets it: packed by `npm pack` (its `prepack` builds it),
 * installed from the tarball into a new CommonJS project (`npm init -y`) and a new ES module
 * project, typechecked with the settings `tsc --init` writes, then run: log in, list projects.
 * Its one dependency comes from the npm cache (or the registry).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const run = promisify(execFile);
const postgres = await requirePostgres();

const EMAIL = 'frontend@example.com';
const PASSWORD = 'a long frontend password';

async function sh(command: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${failed.stdout ?? ''}\n${failed.stderr ?? failed.message}`);
  }
}

const npm = (args: string[], cwd: string) => sh('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], cwd);

/** The consumer's code: `import … = require` is how CommonJS TypeScript imports under `verbatimModuleSyntax`. */
function consumerSource(kind: 'cjs' | 'esm', url: string): string {
  const body = `
  const api = createApiClient(${JSON.stringify(url)}, { cookieJar: new CookieJar() });
  const login = await api.POST('/auth/login', { body: { email: ${JSON.stringify(EMAIL)}, password: ${JSON.stringify(PASSWORD)} } });
  if (login.error) throw new Error('login: ' + login.error.code);
  const { data, error } = await api.GET('/projects', { params: { query: { limit: 10 } } });
  if (error) throw new Error('list: ' + error.code);
  const projects: Project[] = data;
  // @ts-expect-error the types know the paths: a typo does not compile
  void api.GET('/projectz');
  console.log(JSON.stringify(projects.map((project) => project.name)));
`;
  return kind === 'esm'
    ? `import { createApiClient, CookieJar, type Project } from '@tenantkit/client';\n${body}`
    : `import tenantkit = require('@tenantkit/client');\nconst { createApiClient, CookieJar } = tenantkit;\ntype Project = tenantkit.Project;\n` +
        `async function main(): Promise<void> {${body}}\nmain().catch((error: unknown) => { console.error(error); throw error; });\n`;
}

describe.skipIf(!postgres)('@tenantkit/client, packed and installed as a frontend would', () => {
  let app: TestApp;
  let work: string;
  let tarball: string;

  beforeAll(async () => {
    app = await startTestApp();
    work = await mkdtemp(join(tmpdir(), 'tk-client-'));
    const signup = await app.request('/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(signup.status).toBe(201);
    const token = await tokenFromEmail(app, EMAIL, '/verify-email');
    const api = createApiClient(app.url, { cookieJar: new CookieJar() });
    expect((await api.POST('/auth/verify-email', { body: { token } })).response.status).toBe(200);
    expect((await api.POST('/auth/login', { body: { email: EMAIL, password: PASSWORD } })).response.status).toBe(200);
    expect((await api.POST('/projects', { body: { name: 'Packed' } })).response.status).toBe(201);
    const packed = JSON.parse(await npm(['pack', '--json', '--pack-destination', work], join(ROOT, 'app/client'))) as Array<{ filename: string }>;
    tarball = join(work, packed[0]!.filename);
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('is a tarball under 100 kB with one runtime dependency and nothing of the server', async () => {
    expect((await stat(tarball)).size).toBeLessThan(100 * 1024);
    const manifest = JSON.parse(await sh('tar', ['-xOzf', tarball, 'package/package.json'], work)) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    const files = (await sh('tar', ['-tzf', tarball], work)).trim().split('\n');
    expect(files.every((file) => file.startsWith('package/dist/') || ['package/package.json', 'package/README.md'].includes(file))).toBe(true);
  });

  it.each(['cjs', 'esm'] as const)('installs into a new %s project, typechecks with `tsc --init` defaults, logs in and lists', async (kind) => {
    const project = join(work, kind);
    await mkdir(project);
    await npm(['init', '-y'], project);
    if (kind === 'esm') await npm(['pkg', 'set', 'type=module'], project);
    await npm(['install', tarball], project);
    // Only the client and openapi-fetch's own helper types: no server, no Node binary.
    const installed = (await readdir(join(project, 'node_modules'))).filter((name) => !name.startsWith('.'));
    expect(installed.sort()).toEqual(['@tenantkit', 'openapi-fetch', 'openapi-typescript-helpers']);
    await sh(process.execPath, [TSC, '--init'], project);
    await writeFile(join(project, 'index.ts'), consumerSource(kind, app.url));
    await sh(process.execPath, [TSC, '-p', '.'], project);
    const output = await sh(process.execPath, ['index.js'], project);
    expect(JSON.parse(output.trim())).toEqual(['Packed']);
    // Plain JavaScript too: `require` in CommonJS, `import` in an ES module.
    const plain = kind === 'cjs' ? "console.log(typeof require('@tenantkit/client').createApiClient)" : "import('@tenantkit/client').then((m) => console.log(typeof m.createApiClient))";
    expect((await sh(process.execPath, ['-e', plain], project)).trim()).toBe('function');
  }, 240_000);
});
