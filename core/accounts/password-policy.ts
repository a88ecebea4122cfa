import { DomainError } from '../shared/domain-error';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;

/** Length in Unicode code points, not UTF-16 units: an emoji counts once. */
export const passwordLength = (password: string): number => [...password].length;

export const isValidPassword = (password: string): boolean => {
  const length = passwordLength(password);
  return length >= PASSWORD_MIN && length <= PASSWORD_MAX;
};

/** Enforced wherever a password is set: signup, invitation accept, reset, update. `field` names the input field. */
export function assertValidPassword(password: string, field: string): void {
  if (!isValidPassword(password)) {
    throw new DomainError('VALIDATION_ERROR', 'The request is invalid', {
      [field]: `Password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`,
    });
  }
}
