import { addSeconds, type AccountsPorts } from './accounts-ports';

export interface IssuedSession {
  /** The bearer secret: goes into the cookie and nowhere else. */
  token: string;
  sessionId: number;
  expiresAt: Date;
}

/** Creates a session with a fresh 256-bit token; only the token's hash is stored. */
export class SessionIssuer {
  constructor(
    private readonly ports: Pick<AccountsPorts, 'sessions' | 'tokenGenerator' | 'tokenHasher' | 'clock'>,
    private readonly maxAgeSeconds: number,
  ) {}

  async issue(userId: number): Promise<IssuedSession> {
    const token = this.ports.tokenGenerator.generate();
    const now = this.ports.clock.now();
    const expiresAt = addSeconds(now, this.maxAgeSeconds);
    const { id } = await this.ports.sessions.create({
      userId,
      tokenHash: this.ports.tokenHasher.hash(token),
      createdAt: now,
      expiresAt,
    });
    return { token, sessionId: id, expiresAt };
  }
}
