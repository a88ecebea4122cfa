/** Service identifiers, one symbol per interface. Only app/container/ resolves them. */
export const TOKENS = {
  Config: Symbol.for('AppConfig'),
  Logger: Symbol.for('Logger'),
  Clock: Symbol.for('Clock'),
  Database: Symbol.for('Database'),
  UnitOfWork: Symbol.for('UnitOfWork'),
  RateLimiter: Symbol.for('RateLimiter'),
  HealthCheck: Symbol.for('HealthCheck'),
  Routes: Symbol.for('Routes'),
  Authenticate: Symbol.for('Authenticate'),
} as const;
