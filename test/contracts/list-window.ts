import { expect } from 'vitest';
import type { ListPosition, ListWindow } from '../../core/shared/list-page';

/**
 * The paging part of a list contract: walking the list `limit` items at a time, each window
 * starting after the last item of the previous one, yields the whole list in its order, once.
 */
export async function expectWindowsWalkTheList(
  list: (window?: ListWindow) => Promise<ListPosition[]>,
  limit: number,
  order: 'ascending' | 'newest-first' = 'ascending',
): Promise<void> {
  const all = (await list()).map((item) => item.id);
  expect(all.length).toBeGreaterThan(limit);
  const walked: number[] = [];
  let after: ListPosition | undefined;
  for (let page = 0; page <= all.length; page += 1) {
    const items = await list({ limit, ...(after ? { after } : {}) });
    expect(items.length).toBeLessThanOrEqual(limit);
    walked.push(...items.map((item) => item.id));
    if (items.length < limit) break;
    after = { createdAt: items[items.length - 1]!.createdAt, id: items[items.length - 1]!.id };
  }
  expect(walked).toEqual(all);
    const pastTheEnd = order === 'ascending' ? { createdAt: new Date('2999-01-01T00:00:00.000Z'), id: 1 } : { createdAt: new Date('1970-01-01T00:00:00.000Z'), id: 1 };
  expect(await list({ limit, after: pastTheEnd })).toEqual([]);
}
