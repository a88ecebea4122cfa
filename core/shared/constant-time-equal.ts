/**
 * Compares two strings in time that does not depend on where they differ, so a secret cannot be
 * guessed one character at a time from response timings. The length is not hidden: compare
 * fixed-size values (digests).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}
