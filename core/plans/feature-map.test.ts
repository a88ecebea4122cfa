import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FEATURE_CATALOGUE, FEATURE_KEYS, hasRoomFor, listFeatures } from './feature-catalogue';
import { checkFeatureMap, resolveFeatures } from './feature-map';

describe('feature catalogue', () => {
  it('declares the four features with kind, default and label, in order', () => {
    expect(listFeatures()).toEqual([
      { key: 'max_notes', kind: 'limit', default: 0, label: 'Notes' },
      { key: 'max_projects', kind: 'limit', default: -1, label: 'Projects' },
      { key: 'token_limit', kind: 'metered', default: 0, label: 'AI tokens per usage period' },
      { key: 'enable_ai', kind: 'flag', default: false, label: 'AI copilot' },
    ]);
  });

  it('treats -1 as unlimited and counts the slot being taken', () => {
    expect(hasRoomFor(-1, 1_000_000)).toBe(true);
    expect(hasRoomFor(0, 0)).toBe(false);
    expect(hasRoomFor(10, 9)).toBe(true);
    expect(hasRoomFor(10, 10)).toBe(false);
    expect(hasRoomFor(10, 8, 2)).toBe(true);
  });
});

describe('checkFeatureMap', () => {
  it('accepts known keys with values of their kind, including -1 and 0', () => {
    expect(checkFeatureMap({ max_notes: 5, max_projects: -1, token_limit: 0, enable_ai: true })).toEqual({
      ok: true,
      features: { max_notes: 5, max_projects: -1, token_limit: 0, enable_ai: true },
    });
    expect(checkFeatureMap({})).toEqual({ ok: true, features: {} });
  });

  it('names every bad key by its field path', () => {
    const result = checkFeatureMap(
      { max_note: 1, max_notes: -2, token_limit: 1.5, enable_ai: 'yes', max_projects: true },
      'body.features',
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        'body.features.max_note': expect.stringContaining('Unknown feature'),
        'body.features.max_notes': expect.stringContaining('-1 for unlimited'),
        'body.features.token_limit': 'Must be an integer',
        'body.features.enable_ai': 'Must be a boolean',
        'body.features.max_projects': 'Must be an integer',
      },
    });
  });

  it.each([null, [], 'x', 3, true])('refuses a non-object (%j) at the map itself', (input) => {
    expect(checkFeatureMap(input)).toEqual({ ok: false, errors: { features: expect.any(String) } });
  });

  it('refuses values beyond a 32-bit column, and inherited keys are not features', () => {
    expect(checkFeatureMap({ max_notes: 2 ** 31 }).ok).toBe(false);
    expect(checkFeatureMap({ toString: 1 }).ok).toBe(false);
    expect(checkFeatureMap(JSON.parse('{"__proto__": 1}')).ok).toBe(false);
  });

  it('property: any input either validates to catalogue values or is refused with field paths, never throws', () => {
    const value = fc.oneof(fc.integer({ min: -5, max: 2 ** 32 }), fc.double(), fc.boolean(), fc.string(), fc.constant(null), fc.object());
    const key = fc.oneof(fc.constantFrom(...FEATURE_KEYS), fc.string());
    const input = fc.oneof(fc.dictionary(key, value), fc.anything());
    fc.assert(
      fc.property(input, (candidate) => {
        const result = checkFeatureMap(candidate, 'features');
        if (result.ok) {
          for (const [k, v] of Object.entries(result.features)) {
            const kind = FEATURE_CATALOGUE[k as keyof typeof FEATURE_CATALOGUE].kind;
            if (kind === 'flag') expect(typeof v).toBe('boolean');
            else expect(Number.isInteger(v) && (v as number) >= -1).toBe(true);
          }
          // Every key of the input was kept: nothing is silently dropped.
          expect(Object.keys(result.features).sort()).toEqual(Object.keys(candidate as object).sort());
        } else {
          expect(Object.keys(result.errors).length).toBeGreaterThan(0);
          for (const path of Object.keys(result.errors)) expect(path === 'features' || path.startsWith('features.')).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('resolveFeatures', () => {
  it('fills what a plan omits with the catalogue default', () => {
    expect(resolveFeatures({ max_notes: 3 })).toEqual({ max_notes: 3, max_projects: -1, token_limit: 0, enable_ai: false });
  });

  it('ignores stored keys the catalogue no longer has', () => {
    expect(resolveFeatures({ retired_feature: 4, max_notes: 2 } as Record<string, unknown>)).toEqual({ max_notes: 2, max_projects: -1, token_limit: 0, enable_ai: false });
  });

  it('refuses a stored value it cannot read instead of reading it as the default', () => {
    for (const stored of [{ token_limit: 3_000_000_000 }, { token_limit: 2 ** 31 }, { token_limit: -5 }, { token_limit: 1.5 }, { token_limit: '100' }, { enable_ai: 'yes' }, { max_notes: null }]) {
      expect(() => resolveFeatures(stored as Record<string, unknown>), JSON.stringify(stored)).toThrow(/cannot be read/);
    }
    expect(resolveFeatures({ token_limit: 2 ** 31 - 1 })).toMatchObject({ token_limit: 2_147_483_647 });
  });
});
