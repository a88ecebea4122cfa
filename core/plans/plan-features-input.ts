import { DomainError } from '../shared/domain-error';
import { checkFeatureMap } from './feature-map';
import type { FeatureMap } from './feature-catalogue';

/** A request's `features`, checked against the catalogue; VALIDATION_ERROR names each bad key. */
export function featuresFromInput(input: unknown): FeatureMap {
  const checked = checkFeatureMap(input, 'features');
  if (!checked.ok) throw new DomainError('VALIDATION_ERROR', 'The request is invalid', checked.errors);
  return checked.features;
}
