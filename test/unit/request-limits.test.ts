import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyRoute } from '../../app/http/route';
import { buildOpenApi } from '../../app/http/openapi';
import { startOfflineApp, type OfflineApp } from '../support/offline-app';

/**
 * What the server enforces is what it describes. For every operation of the description, every
 * request field it declares is sent at its described limits (and one step past them): length,
 * range, enum, const and required. The routes run in the real router with their real schemas;
 * only the handlers are replaced, so nothing is written anywhere. A field with no described
 * maximum must accept a long value, so an enforced but undescribed limit fails this test too.
 */
type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: string;
  oneOf?: Array<{ required?: string[] }>;
  minProperties?: number;
};
type Parameter = { name: string; in: 'path' | 'query'; required: boolean; schema: Schema };
type Operation = { operationId: string; parameters: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } };

const UNDESCRIBED_LONG = 50_000;

let app: OfflineApp;
let base: string;
let components: Record<string, Schema>;
const operations: Array<{ method: string; path: string; op: Operation }> = [];

beforeAll(async () => {
  app = await startOfflineApp((all) => {
    const routes = all.map((route): AnyRoute => ({ ...route, enabled: true, handler: async () => ({ status: 204 }) }));
    const doc = buildOpenApi(routes, { title: 'tenantkit', version: 'test', sessionCookieName: 'session_id' }) as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, Schema> };
    };
    components = doc.components.schemas;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) operations.push({ method, path, op });
    }
    return routes;
  });
  base = app.url;
});

afterAll(() => app?.close());

const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(components[schema.$ref.split('/').pop()!]!) : schema);
/** The non-null branch of a nullable field. */
const concrete = (schema: Schema): Schema => {
  const s = resolve(schema);
  return s.anyOf ? concrete(s.anyOf.find((branch) => resolve(branch).type !== 'null')!) : s;
};

/** A string of exactly `length` characters that satisfies the schema's format. */
function text(schema: Schema, length: number): string {
  if (schema.format === 'email') {
    const domain = '@example.com';
    return 'a'.repeat(Math.max(1, length - domain.length)) + domain;
  }
  if (schema.format === 'uri') return `https://example.com/${'a'.repeat(Math.max(0, length - 20))}`;
  return 'a'.repeat(length);
}

/** "Exactly one of": the fields the first `oneOf` alternative requires, with valid values. */
function oneOfFirst(schema: Schema): Record<string, unknown> {
  const required = schema.oneOf?.[0]?.required ?? [];
  return Object.fromEntries(required.map((name) => [name, valid(schema.properties![name]!)]));
}

/** A valid value: the smallest the schema allows (optional fields left out). */
function valid(schema: Schema): unknown {
  const s = concrete(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
  if (s.type === 'boolean') return true;
  if (s.type === 'object') {
    const required = Object.entries(s.properties ?? {}).filter(([name]) => (s.required ?? []).includes(name));
    const value: Record<string, unknown> = { ...Object.fromEntries(required.map(([name, property]) => [name, valid(property)])), ...oneOfFirst(s) };
    // "At least n properties": the first optional ones, with valid values.
    for (const [name, property] of Object.entries(s.properties ?? {})) {
      if (Object.keys(value).length >= (s.minProperties ?? 0)) break;
      value[name] ??= valid(property);
    }
    return value;
  }
  const min = Math.max(s.minLength ?? 1, s.format === 'email' ? 16 : 1);
  return text(s, min);
}

interface Probe {
  label: string;
  value: unknown;
  /** Whether the server must refuse it (422 naming the field). */
  refused: boolean;
}

/** The values at and one step past every limit the field describes. */
function probes(schema: Schema, required: boolean): Probe[] {
  const s = concrete(schema);
  const out: Probe[] = [{ label: 'absent', value: undefined, refused: required }];
  if (s.const !== undefined) out.push({ label: 'another constant', value: `${String(s.const)}x`, refused: true });
  if (s.enum) {
    for (const value of s.enum) out.push({ label: `enum ${String(value)}`, value, refused: false });
    out.push({ label: 'outside the enum', value: 'not-one-of-them', refused: true });
  } else if (s.type === 'string') {
    if (s.maxLength !== undefined) {
      out.push({ label: `maxLength ${s.maxLength}`, value: text(s, s.maxLength), refused: false });
      out.push({ label: `maxLength ${s.maxLength} + 1`, value: text(s, s.maxLength + 1), refused: true });
    } else if (s.pattern !== undefined) {
      out.push({ label: `not matching ${s.pattern}`, value: '\u0000 does not match', refused: true });
    } else {
      out.push({ label: `${UNDESCRIBED_LONG} characters (no maxLength described)`, value: text(s, UNDESCRIBED_LONG), refused: false });
    }
    if ((s.minLength ?? 0) > 0) {
      out.push({ label: `minLength ${s.minLength}`, value: text(s, s.minLength!), refused: false });
      out.push({ label: `minLength ${s.minLength} - 1`, value: 'a'.repeat(s.minLength! - 1), refused: true });
    }
  } else if (s.type === 'integer') {
    if (s.minimum !== undefined) out.push({ label: `minimum ${s.minimum}`, value: s.minimum, refused: false }, { label: `minimum - 1`, value: s.minimum - 1, refused: true });
    if (s.maximum !== undefined) out.push({ label: `maximum ${s.maximum}`, value: s.maximum, refused: false }, { label: `maximum + 1`, value: s.maximum + 1, refused: true });
  }
  return out;
}

async function send(method: string, path: string, params: Record<string, unknown>, query: Record<string, unknown>, body: unknown) {
  let url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const search = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])));
  if (search.size > 0) url += `?${search}`;
  const res = await fetch(base + url, {
    method: method.toUpperCase(),
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = res.status === 422 ? ((await res.json()) as { details: Record<string, string> }) : undefined;
  if (res.status !== 422) await res.arrayBuffer();
  return { status: res.status, details: json?.details ?? {} };
}

describe('every described request limit is the enforced one', () => {
  it('covers the operations that take input', () => {
    const withInput = operations.filter(({ op }) => op.parameters.length > 0 || op.requestBody);
    expect(withInput.map(({ op }) => op.operationId)).toEqual(expect.arrayContaining(['signup', 'createProject', 'listProjects', 'updateMemberRole', 'createInvitation']));
  });

  it('sends each field at and past its limits, in every operation', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const { method, path, op } of operations) {
      const body = op.requestBody ? resolve(op.requestBody.content['application/json']!.schema) : undefined;
      const fields: Array<{ where: 'path' | 'query' | 'body'; name: string; schema: Schema; required: boolean }> = [
        ...op.parameters.map((p) => ({ where: p.in, name: p.name, schema: p.schema, required: p.required })),
        ...Object.entries(body?.properties ?? {}).map(([name, schema]) => ({ where: 'body' as const, name, schema, required: (body?.required ?? []).includes(name) })),
      ];
      const baseline = {
        path: Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, valid(p.schema)])),
        query: Object.fromEntries(op.parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, valid(p.schema)])),
        body: body ? (valid(body) as Record<string, unknown>) : undefined,
      };
      const ok = await send(method, path, baseline.path, baseline.query, baseline.body);
      sent += 1;
      if (ok.status === 422) failures.push(`${op.operationId}: the minimal valid request was refused: ${JSON.stringify(ok.details)}`);
      for (const field of fields) {
        if (field.where === 'path' && !field.required) continue;
        for (const probe of probes(field.schema, field.required)) {
          if (field.where === 'path' && probe.value === undefined) continue; // a path without the segment is another route
          const request = { path: { ...baseline.path }, query: { ...baseline.query }, body: baseline.body ? { ...baseline.body } : undefined };
          const target = field.where === 'body' ? request.body! : request[field.where];
          if (probe.value === undefined) delete target[field.name];
          else target[field.name] = probe.value;
          const res = await send(method, path, request.path, request.query, request.body);
          sent += 1;
          const key = `${field.where}.${field.name}`;
          const refused = res.status === 422 && key in res.details;
          if (refused !== probe.refused) {
            failures.push(`${op.operationId} ${key} ${probe.label}: expected ${probe.refused ? '422 naming it' : 'acceptance'}, got ${res.status} ${JSON.stringify(res.details)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(150);
  });
});
