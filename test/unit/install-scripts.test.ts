import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);

/**
 * npm 11 runs a dependency's install scripts only when package.json's `allowScripts` covers it,
 * and warns for every other one. The project relies on `node`'s preinstall (it brings Node 24):
 * every package of the lockfile with an install script is decided here, approved or denied.
 */
describe('install scripts', () => {
  it('every dependency with an install script is listed in allowScripts, and node is allowed', async () => {
    const manifest = JSON.parse(await readFile(new URL('package.json', ROOT), 'utf8')) as { allowScripts?: Record<string, boolean> };
    const lock = JSON.parse(await readFile(new URL('package-lock.json', ROOT), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean; link?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    const allowScripts = manifest.allowScripts ?? {};
    expect([...new Set(withScripts)].filter((name) => !(name in allowScripts))).toEqual([]);
    expect(allowScripts.node).toBe(true);
  });
});
