/**
 * The layer rules of docs/how-it-works.md, enforced (`npm run check:layers`, part of .ci/run).
 * Arrows point inward: app (composition) → features → platform / errors / config.
 */
module.exports = {
  forbidden: [
    {
      name: 'platform-imports-no-feature',
      comment: 'platform/ is infrastructure (caches, bus, JWT, crypto, threads, SQL, HTTP pipeline, logging): it knows no feature.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(features|app|cli|web|main|entry)' },
    },
    {
      name: 'features-meet-through-index',
      comment: 'A feature reaches another only through that feature\'s index.ts.',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/', pathNot: '[a-z-]*contract\\.ts$' },
      to: { path: '^src/features/[^/]+/', pathNot: ['^src/features/$1/', '^src/features/[^/]+/index\\.ts$'] },
    },
    {
      name: 'contracts-meet-directly',
      comment: 'A wire contract may build on another feature\'s contract (the pages import them type-only).',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/[a-z-]*contract\\.ts$' },
      to: { path: '^src/features/[^/]+/', pathNot: ['^src/features/$1/', '^src/features/[^/]+/[a-z-]*contract\\.ts$'] },
    },
    {
      name: 'features-import-no-composition',
      comment: 'Only the composition root (src/app, main, cli) knows every feature: it builds the services and hands each feature\'s register() what that feature names.',
      severity: 'error',
      from: { path: '^src/(features|platform|config|errors)/' },
      to: { path: '^src/(app|cli|main|entry)' },
    },
    {
      name: 'migrations-follow-no-code',
      comment: 'A migration runs as written when released, whatever the code becomes: it reads no feature code, its own included, only Kysely and platform/sql.',
      severity: 'error',
      from: { path: '^src/(features/[^/]+|platform/[^/]+)/migrations/' },
      to: { path: '^src/', pathNot: ['^src/$1/migrations/', '^src/platform/sql/'] },
    },
    {
      name: 'features-import-no-aggregate',
      comment: 'A feature names what it uses, from the features that own it: no file beside the feature folders is imported by one. The aggregates of every service and repository live in src/app.',
      severity: 'error',
      from: { path: '^src/features/[^/]+/' },
      to: { path: '^src/features/[^/]+\\.ts$' },
    },
    {
      name: 'jwt-libraries-behind-platform-jwt',
      comment: 'One JWT module: jose is used through src/platform/jwt alone, which signs and checks by key.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/platform/jwt/' },
      to: { path: 'node_modules/jose/' },
    },
    {
      name: 'errors-import-nothing',
      severity: 'error',
      from: { path: '^src/errors/' },
      to: { pathNot: '^src/errors/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'contracts-import-only-typebox',
      comment: 'The wire contracts are shared with the pages: TypeBox and each other, nothing of the server.',
      severity: 'error',
      from: { path: '(^src/features/.+/[a-z-]*contract\\.ts$|^src/platform/http/contract\\.ts$)' },
      to: { pathNot: ['^src/features/.+/[a-z-]*contract\\.ts$', '^src/platform/http/contract\\.ts$', '^node_modules/@sinclair/typebox/'] },
    },
    {
      name: 'web-imports-only-contracts',
      comment: 'The page bundle shares only the contract types with the server, and the one return-path rule (a pure function).',
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: '^src/', pathNot: ['^src/web/', '^src/features/.+/[a-z-]*contract\\.ts$', '^src/platform/http/contract\\.ts$', '^src/platform/http/return-path\\.ts$'] },
    },
    {
      name: 'no-feature-cycles',
      comment: 'No two features depend on each other, directly or through others, type imports included: a type two features share belongs to the lower one (or to platform), and a lower feature tells higher ones what happened through domain events (docs/how-it-works.md).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/features/([^/]+)' },
      to: { path: '^src/features/[^/]+', pathNot: '^src/features/$1(/|$)', circular: true },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle that runs code; a cycle of type-only imports is erased at compile time.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
