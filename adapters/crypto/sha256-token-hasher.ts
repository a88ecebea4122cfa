import { createHash } from 'node:crypto';
import type { TokenHasher } from '../../core/accounts/crypto.port';

/** The tokens carry 256 bits of entropy, so a fast unsalted hash is enough to make a leaked table useless. */
export class Sha256TokenHasher implements TokenHasher {
  hash(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('hex');
  }
}
