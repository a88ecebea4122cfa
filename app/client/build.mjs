// `npm run build` (and `prepack`): compiles this package twice from the same sources, ES modules
// to dist/esm and CommonJS to dist/cjs, each with its declarations. A package.json in each folder
// tells Node and TypeScript which module system its .js and .d.ts files are, so one `exports` map
// serves `import` and `require` without .mjs/.cjs renaming.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const builds = [
  { folder: 'esm', type: 'module', flags: ['--module', 'es2022', '--moduleResolution', 'bundler'] },
  { folder: 'cjs', type: 'commonjs', flags: ['--module', 'commonjs', '--moduleResolution', 'node10'] },
];

rmSync(join(here, 'dist'), { recursive: true, force: true });
for (const { folder, type, flags } of builds) {
  const outDir = join(here, 'dist', folder);
  execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json'), '--outDir', outDir, ...flags], { stdio: 'inherit' });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify({ type }, null, 2)}\n`);
}
