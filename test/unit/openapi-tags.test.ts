import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../client/openapi-document';

describe('the description’s tags', () => {
  it('are each described in words, not by their name, and come in the order a newcomer meets them', async () => {
    const document = (await buildOpenApiDocument()) as { tags: Array<{ name: string; description: string }>; paths: Record<string, Record<string, { tags: string[] }>> };
    const used = new Set(Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((operation) => operation.tags)));
    expect(document.tags.map((tag) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of document.tags) {
      expect(tag.description.length, tag.name).toBeGreaterThan(tag.name.length + 20);
      expect(tag.description.toLowerCase()).not.toBe(tag.name.toLowerCase());
    }
    const names = document.tags.map((tag) => tag.name);
    expect(names[0]).toBe('Authentication');
    expect(names.indexOf('Users')).toBeLessThan(names.indexOf('Projects'));
    expect(names.indexOf('Projects')).toBeLessThan(names.indexOf('Billing'));
    expect(names.at(-1)).toBe('System');
  });
});
