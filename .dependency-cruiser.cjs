/** Layer boundaries of the hexagon. `npm run boundaries` fails the build on any violation. */
const frameworks =
  '^(koa|@koa/|koa-|inversify|@inversifyjs/|reflect-metadata|@mikro-orm/|@electric-sql/|kysely|knex|pg|bullmq|ioredis|stripe|openai|postmark|@aws-sdk/|@azure/|openid-client|oidc-provider|rate-limiter-flexible|pino|valibot|@valibot/|bcryptjs|jose)';

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
