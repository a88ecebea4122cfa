import * as v from 'valibot';
import { DomainError } from '../../core/shared/domain-error';

type Where = 'path' | 'query' | 'body';

/**
 * Parses `input` against `schema`; on failure throws VALIDATION_ERROR whose `details` maps each
 * field path (prefixed by where it came from: body, query, path) to its first message.
 */
export function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown, where: Where): v.InferOutput<S> {
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


const snakeCase = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function fieldNames(schema: v.GenericSchema | undefined): readonly string[] {
  const entries = (schema as { entries?: Record<string, unknown> } | undefined)?.entries;
  return entries ? Object.keys(entries) : [];
}

/**
 * A use case names the fields of its own input (`newPassword`, `cursor`, `features.max_notes`);
 * the client needs to know where it sent them (`body.new_password`, `query.cursor`,
 * `body.features.max_notes`). Each field's first segment is looked up, in its snake_case API
 * spelling, among the route's path, query and body fields; nested segments are kept as they are
 * (they are keys of the value the client sent). A field the request does not carry keeps its
 * name. Anything other than a VALIDATION_ERROR passes through.
 */
export function locateInputFields(error: unknown, route: { params?: v.GenericSchema; query?: v.GenericSchema; body?: v.GenericSchema }): unknown {
  if (!(error instanceof DomainError) || error.code !== 'VALIDATION_ERROR') return error;
  const locations: Array<[Where, readonly string[]]> = [
    ['path', fieldNames(route.params)],
    ['query', fieldNames(route.query)],
    ['body', fieldNames(route.body)],
  ];
  const details: Record<string, unknown> = {};
  for (const [field, message] of Object.entries(error.details)) {
    const [head = field, ...rest] = field.split('.');
    const name = [snakeCase(head), ...rest].join('.');
    const where = locations.find(([, names]) => names.includes(snakeCase(head)))?.[0];
    details[where ? `${where}.${name}` : field] = message;
  }
  return new DomainError('VALIDATION_ERROR', error.message, details);
}
