import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, GENERATED_TYPES_PATH, renderApiTypes } from '../client/openapi-document';

describe('generated API client', () => {
  it('matches the routes: run `npm run client` and commit app/client/api.ts when this fails', async () => {
    const fresh = await renderApiTypes(await buildOpenApiDocument());
    const checkedIn = await readFile(GENERATED_TYPES_PATH, 'utf8');
    // A boolean with a pointer, not a 1,600-line string diff: the fix is to regenerate.
    const [a, b] = [fresh.split('\n'), checkedIn.split('\n')];
    const line = Array.from({ length: Math.max(a.length, b.length) }, (_, i) => i).find((i) => a[i] !== b[i]);
    expect(fresh === checkedIn, `api.d.ts is stale from line ${(line ?? 0) + 1}: run \`npm run client\``).toBe(true);
  });
});
