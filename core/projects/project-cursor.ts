import { DomainError } from '../shared/domain-error';
import type { ProjectPosition } from './project-repository.port';

/**
 * The `cursor` of GET /projects: opaque to clients, base64url of `<createdAt ISO>|<id>`. It names
 * the last project of the previous page, so later pages stay put while newer rows are inserted.
 */
export function encodeProjectCursor(position: ProjectPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`, 'utf8').toString('base64url');
}

/** Throws VALIDATION_ERROR for anything `encodeProjectCursor` did not produce. */
export function decodeProjectCursor(cursor: string): ProjectPosition {
  // Node's base64url decoder silently skips characters outside the alphabet: check it first.
  const position = /^[A-Za-z0-9_-]+$/.test(cursor) ? parse(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  if (!position) throw new DomainError('VALIDATION_ERROR', 'The request is invalid', { cursor: 'Invalid cursor' });
  return position;
}

const DECODED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([1-9]\d{0,9})$/;
const MAX_ID = 2_147_483_647;

function parse(text: string): ProjectPosition | null {
  const match = DECODED.exec(text);
  if (!match) return null;
  const createdAt = new Date(match[1]!);
  const id = Number(match[2]);
  // The round trip rejects dates such as 2026-02-30, which Date would silently roll over.
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== match[1] || id > MAX_ID) return null;
  return { createdAt, id };
}
