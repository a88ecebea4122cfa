import * as v from 'valibot';
import { DomainError } from '../../core/shared/domain-error';

/**
 * Parses `input` against `schema`; on failure throws VALIDATION_ERROR whose `details` maps each
 * field path (prefixed by where it came from: body, query, path) to its first message.
 */
export function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown, where: 'body' | 'query' | 'path'): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (result.success) return result.output;
  const details: Record<string, string> = {};
  for (const issue of result.issues) {
    const field = v.getDotPath(issue);
    const key = field ? `${where}.${field}` : where;
    // A missing field: say so plainly rather than valibot's "Invalid key: Expected … but received undefined".
    details[key] ??= issue.input === undefined && issue.kind === 'schema' ? 'Required' : issue.message;
  }
  throw new DomainError('VALIDATION_ERROR', 'The request is invalid', details);
}
