import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../client/openapi-document';

/**
 * `npm run lint:openapi` (part of `npm run check`): the description `GET /openapi.json` serves,
 * linted by Redocly (recommended rules, warnings as errors) and Spectral (`spectral:oas`, failing
 * on warnings). Both run from node_modules and need no network.
 */
const here = fileURLToPath(new URL('.', import.meta.url));
const bin = (name: string) => fileURLToPath(new URL(`../../node_modules/.bin/${name}`, import.meta.url));
const directory = await mkdtemp(join(tmpdir(), 'tk-openapi-'));
const document = join(directory, 'openapi.json');
const offline = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' };
try {
  await writeFile(document, JSON.stringify(await buildOpenApiDocument(), null, 2));
  const runs = [
    [bin('redocly'), 'lint', '--config', join(here, 'redocly.yaml'), '--format', 'stylish', document],
    [bin('spectral'), 'lint', '--ruleset', join(here, 'spectral.yaml'), '--fail-severity', 'warn', document],
  ];
  let failed = false;
  for (const [command, ...args] of runs) {
    const result = spawnSync(command!, args, { stdio: 'inherit', env: offline, timeout: 120_000 });
    if (result.status !== 0) failed = true;
  }
  if (failed) process.exitCode = 1;
} finally {
  await rm(directory, { recursive: true, force: true });
}
