import { randomBytes } from 'node:crypto';
import type { TokenGenerator } from '../../core/accounts/crypto.port';

/** 32 bytes from the OS CSPRNG, base64url without padding: 43 URL- and cookie-safe characters. */
export class NodeTokenGenerator implements TokenGenerator {
  generate(): string {
    return randomBytes(32).toString('base64url');
  }
}
