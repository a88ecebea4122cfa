/**
 * The `cursor` of GET /projects: the shared list cursor (core/shared/list-page.ts), naming the last
 * project of the previous page, so later pages stay put while newer rows are inserted.
 */
export { decodeListCursor as decodeProjectCursor, encodeListCursor as encodeProjectCursor } from '../shared/list-page';
