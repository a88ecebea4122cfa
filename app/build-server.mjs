// `npm run build:server`: the server, the worker and the CLI as plain JavaScript in dist/server,
// so production runs `node dist/server/main.js` (`npm run start:prod`) without compiling
// TypeScript at every start (tsx): about half the startup time and 55 MB less memory
// (docs/deploy.md). esbuild bundles this repository's code only; packages stay in node_modules.
import { build } from 'esbuild';
import { copyFile, rm } from 'node:fs/promises';

const outdir = 'dist/server';
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: ['app/main.ts', 'app/worker/main.ts', 'app/cli/main.ts'],
  outbase: 'app',
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
// The bcrypt worker threads load this file beside the code that starts them (new URL(…, import.meta.url)).
await copyFile('adapters/crypto/bcrypt.worker.mjs', `${outdir}/bcrypt.worker.mjs`);
