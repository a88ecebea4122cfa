import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `docs/adding-a-feature.md` tells a newcomer to copy the projects slice file by file, so it must
 * stay true: every file it names exists, and every file of the slice is named in it.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const GUIDE = 'docs/adding-a-feature.md';
const guide = readFileSync(join(ROOT, GUIDE), 'utf8');
const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

/** `a/b/*.test.ts` as a regular expression over repository paths; `*` never crosses a `/`. */
const globToRegExp = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

/** What the guide names as a file: code spans holding a path with an extension, and relative links. */
function namedPaths(): string[] {
  const spans = [...guide.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
  const paths = spans.filter((span) => /^[\w.*-]+(\/[\w.*-]+)+\.(ts|md|cjs|json)$/.test(span) && !span.startsWith('tenantkit/'));
  const links = [...guide.matchAll(/\]\(([\w./-]+\.md)(#[\w-]*)?\)/g)].map((match) => join(dirname(GUIDE), match[1]!));
  return [...new Set([...paths, ...links])];
}

/** The reference slice: every tracked file of projects outside the docs. */
const SLICE = tracked.filter((path) => /project/i.test(basename(path)) && !path.startsWith('docs/') && !path.startsWith('test/fixtures/'));

describe(GUIDE, () => {
  it('names only files that exist', () => {
    const named = namedPaths();
    expect(named.length).toBeGreaterThan(40);
    const missing = named.filter((path) => (path.includes('*') ? !tracked.some((file) => globToRegExp(path).test(file)) : !existsSync(join(ROOT, path))));
    expect(missing).toEqual([]);
  });

  it('names every file of the projects slice, so copying it file by file misses none', () => {
    const named = namedPaths();
    expect(SLICE.length).toBeGreaterThan(20);
    const unnamed = SLICE.filter((file) => !named.some((path) => path === file || (path.includes('*') && globToRegExp(path).test(file))));
    expect(unnamed).toEqual([]);
  });
});
