/**
 * The layer rule of docs/how-it-works.md, enforced (`npm run check:layers`, part of .ci/run).
 * Arrows point inward: http → services → domain / storage interfaces; domain knows only errors.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-only-errors',
      comment: 'domain/ holds pure rules: it returns reasons and knows no storage, service, HTTP or contract.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/(domain|errors)/', dependencyTypesNot: ['core'] },
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
      from: { path: '^src/contracts/' },
      to: { pathNot: ['^src/contracts/', '^node_modules/@sinclair/typebox/'] },
    },
    {
      name: 'storage-imports-no-services-or-http',
      severity: 'error',
      from: { path: '^src/storage/' },
      to: { path: '^src/(services|http|oidc|contracts|web|cli|main)' },
    },
    {
      name: 'services-import-no-http',
      severity: 'error',
      from: { path: '^src/services/' },
      to: { path: '^src/(http|oidc|web|cli|main)' },
    },
    {
      name: 'http-imports-no-storage-implementation',
      comment: 'Routes and plugins reach data only through services (the repository types may be named).',
      severity: 'error',
      from: { path: '^src/(http|oidc)/' },
      to: { path: '^src/storage/', pathNot: '^src/storage/types\\.ts$' },
    },
    {
      name: 'web-imports-only-contracts',
      comment: 'The page bundle shares only the contract types with the server.',
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: '^src/', pathNot: '^src/(web|contracts)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
