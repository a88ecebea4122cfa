import { expect } from 'vitest';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
export const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers every response carries, errors and redirects included. */
export function expectSecurityHeaders(res: Response, options: { hsts?: boolean; csp?: string } = {}): void {
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('content-security-policy')).toBe(options.csp ?? API_CSP);
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-powered-by')).toBeNull();
  expect(res.headers.get('strict-transport-security')).toBe(options.hsts ? HSTS : null);
  expect(res.headers.get('x-request-id')).toBeTruthy();
}

/** Status, the exact ErrorResponse shape, no stack trace. Returns the body. */
export async function expectErrorResponse(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const text = await res.text();
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'details', 'error_id', 'message']);
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  expect(body.error_id).toMatch(UUID);
  expect(body.details).toBeTypeOf('object');
  expect(Array.isArray(body.details)).toBe(false);
  expect(body.details).not.toBeNull();
  expect(text).not.toMatch(/\n\s+at |\.ts:\d+/); // no stack trace
  return body;
}

/**
 * The error of a generated-client call (openapi-fetch's `{ error, response }`): the status and the
 * ErrorResponse shape with `code`. Returns its `details`, to assert on.
 */
export function expectApiError(result: { error?: unknown; response: Response }, status: number, code: string): Record<string, unknown> {
  expect(result.response.status).toBe(status);
  expect(result.error).toMatchObject({ code, message: expect.any(String), error_id: expect.any(String), details: expect.any(Object) });
  return (result.error as { details: Record<string, unknown> }).details;
}
