import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../core/shared/domain-error';
import { locateInputFields } from './validation';

const route = {
  params: v.object({ project_id: v.string() }),
  query: v.object({ cursor: v.optional(v.string()) }),
  body: v.object({ new_password: v.string(), price_id: v.string() }),
};

describe('locateInputFields', () => {
  it("maps a use case's input fields to where the request carried them", () => {
    const error = new DomainError('VALIDATION_ERROR', 'The request is invalid', { newPassword: 'too short', cursor: 'Invalid cursor', projectId: 'no' });
    expect(locateInputFields(error, route)).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'The request is invalid',
      details: { 'body.new_password': 'too short', 'query.cursor': 'Invalid cursor', 'path.project_id': 'no' },
    });
  });

  it('locates a nested field by its first segment and keeps the rest as sent', () => {
    const withFeatures = { body: v.object({ features: v.record(v.string(), v.unknown()) }) };
    const error = new DomainError('VALIDATION_ERROR', 'The request is invalid', { 'features.max_notes': 'Must be an integer', 'features.maxWidgets': 'Unknown' });
    expect(locateInputFields(error, withFeatures)).toMatchObject({
      details: { 'body.features.max_notes': 'Must be an integer', 'body.features.maxWidgets': 'Unknown' },
    });
  });

  it('keeps a field the request does not carry under its own name', () => {
    const error = new DomainError('VALIDATION_ERROR', 'The request is invalid', { password: 'too short' });
    expect(locateInputFields(error, {})).toMatchObject({ details: { password: 'too short' } });
  });

  it('passes every other error through untouched', () => {
    const denied = new DomainError('ACCESS_DENIED', 'no');
    const crash = new Error('boom');
    expect(locateInputFields(denied, route)).toBe(denied);
    expect(locateInputFields(crash, route)).toBe(crash);
  });
});
