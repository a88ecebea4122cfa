/** Layer boundaries of the hexagon. `npm run boundaries` fails the build on any violation. */
const frameworks =
  '^(koa|@koa/|koa-|inversify|@inversifyjs/|reflect-metadata|@mikro-orm/|@electric-sql/|kysely|knex|pg|bullmq|ioredis|stripe|openai|postmark|@aws-sdk/|@azure/|openid-client|oidc-provider|rate-limiter-flexible|pino|valibot|@valibot/|bcryptjs|jose)';

/**
 * Core's contexts, lowest first (docs/architecture.md). A context imports only itself and the
 * levels below it; contexts on one level never import each other.
 */
const CORE_ORDER = [['shared'], ['access'], ['audit'], ['email'], ['accounts'], ['mfa', 'passkeys', 'api-keys'], ['organizations'], ['billing'], ['plans'], ['notes', 'projects'], ['ai'], ['jobs']];
const alternatives = (contexts) => `^core/(${contexts.join('|')})/`;
const declaredOrder = CORE_ORDER.flatMap((level, index) =>
  level.map((context) => ({
    name: 'core-follows-declared-order',
    comment: `core/${context}/ imports only itself and the contexts below it: ${CORE_ORDER.slice(0, index).flat().join(', ') || 'none'}.`,
    severity: 'error',
    from: { path: `^core/${context}/`, pathNot: '\\.test\\.ts$' },
    to: { path: '^core/[^/]+/', pathNot: alternatives([context, ...CORE_ORDER.slice(0, index).flat()]) },
  })),
);

module.exports = {
  forbidden: [
    {
      name: 'core-is-framework-free',
      comment: 'core/ holds use cases and ports only: no framework, SDK or driver packages.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: `node_modules/${frameworks.slice(1)}`, pathNot: '^core/' },
    },
    {
      name: 'core-imports-no-outer-layer',
      comment: 'Unit tests next to a use case may drive it with in-memory adapters and test builders.',
      severity: 'error',
      from: { path: '^core/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(adapters|app|test)/' },
    },
    {
      name: 'core-uses-no-node-io',
      comment: 'core/ reaches the outside world only through ports.',
      severity: 'error',
      from: { path: '^core/' },
      to: { dependencyTypes: ['core'], path: '^(fs|net|http|https|child_process|dgram|dns|tls|cluster|worker_threads)$' },
    },
    ...declaredOrder,
    {
      name: 'core-context-is-declared',
      comment: 'A folder of core/ is a context in CORE_ORDER, so the order covers it.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^core/[^/]+/', pathNot: alternatives(CORE_ORDER.flat()) },
    },
    {
      name: 'core-no-circular',
      comment: 'Inside core/ even a type-only loop is refused: a reader draws the core as a stack.',
      severity: 'error',
      from: { path: '^core/' },
      to: { circular: true },
    },
    {
      name: 'adapters-never-import-app',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^app/' },
    },
    {
      name: 'no-production-code-imports-tests',
      severity: 'error',
      from: { path: '^(core|adapters|app)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      comment: 'Type-only cycles vanish at compile time and are allowed.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
