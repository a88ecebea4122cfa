import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { readPage, type ListPosition, type ListWindow } from '../../core/shared/list-page';
import { streamList, type ListSource } from './list-response';

const items: ListPosition[] = Array.from({ length: 23 }, (_, i) => ({ createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)), id: i + 1 }));

/** A list of `items` read through `readPage`, recording the size of every read. */
function source(batch: number, fail?: (read: number) => boolean) {
  const reads: number[] = [];
  const list: ListSource<ListPosition> = {
    batch,
    toResponse: (item) => ({ id: item.id }),
    page: (request) =>
      readPage(request, async (window: ListWindow) => {
        if (fail?.(reads.length)) throw new Error('database gone');
        const rows = items.filter((item) => !window.after || item.id > window.after.id).slice(0, window.limit);
        reads.push(rows.length);
        return rows;
      }),
  };
  return { list, reads };
}

const fakeContext = () => ({ state: { log: { error: vi.fn() } }, res: { destroy: vi.fn() }, path: '/things', type: '' });

async function text(body: unknown): Promise<string> {
  let all = '';
  for await (const chunk of body as Readable) all += String(chunk);
  return all;
}

describe('streamList', () => {
  it('sends the whole list as one JSON array, reading one batch (and one row more) at a time', async () => {
    const { list, reads } = source(5);
    const ctx = fakeContext();
    const body = await streamList(ctx as never, list);
    expect(body).toBeInstanceOf(Readable);
    expect(ctx.type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(await text(body))).toEqual(items.map((item) => ({ id: item.id })));
    expect(reads).toEqual([6, 6, 6, 6, 3]);
  });

  it('answers a list that fits in one batch as a plain array', async () => {
    const { list, reads } = source(50);
    expect(await streamList(fakeContext() as never, list)).toEqual(items.map((item) => ({ id: item.id })));
    expect(reads).toEqual([23]);
  });

  it('cuts the response short when a later batch fails, so no truncated list parses', async () => {
    const { list } = source(5, (read) => read === 2);
    const ctx = fakeContext();
    const sent = await text(await streamList(ctx as never, list));
    expect(() => JSON.parse(sent) as unknown).toThrow();
    expect(ctx.res.destroy).toHaveBeenCalledOnce();
    expect(ctx.state.log.error).toHaveBeenCalledOnce();
  });
});
