/**
 * The layer rule: dependencies point inward only. interfaces -> application -> domain;
 * infrastructure implements application ports; only src/composition (and main/migrate)
 * may know every layer. Run by `npm run lint`.
 */
const layer = (name) => `(^|/)src/${name}/`;

module.exports = {
  forbidden: [
    {
      name: 'domain-is-plain-typescript',
      comment:
        'The domain imports nothing outside itself: no ORM, HTTP, container or other layer. One exception: ' +
        'any-ascii, a pure function (Unicode to ASCII) that the slug rule is defined by.',
      severity: 'error',
      from: { path: layer('domain') },
      to: { pathNot: [layer('domain'), '^node_modules/any-ascii/'] },
    },
    {
      name: 'application-depends-on-domain-only',
      comment: 'Use cases and ports see the domain and nothing else (no express, typeorm, inversify).',
      severity: 'error',
      from: { path: layer('application') },
      to: { pathNot: [layer('application'), layer('domain')] },
    },
    {
      name: 'interfaces-do-not-reach-adapters',
      comment: 'Controllers talk to use cases, never to infrastructure, the ORM or the container.',
      severity: 'error',
      from: { path: layer('interfaces') },
      to: {
        path: [
          layer('infrastructure'),
          layer('composition'),
          '(^|/)node_modules/(typeorm|pg|better-sqlite3|inversify)/',
        ],
      },
    },
    {
      name: 'infrastructure-does-not-reach-outward',
      comment: 'Adapters implement application ports; they never call controllers or the composition root.',
      severity: 'error',
      from: { path: layer('infrastructure') },
      to: { path: [layer('interfaces'), layer('composition')] },
    },
    {
      name: 'only-the-composition-root-uses-the-container',
      severity: 'error',
      from: { pathNot: [layer('composition')] },
      to: { path: '(^|/)node_modules/inversify/' },
    },
    {
      name: 'only-the-tracing-setup-loads-the-opentelemetry-sdk',
      comment:
        'The SDK, exporter and instrumentation are started once, in src/infrastructure/observability, before Express loads; ' +
        'everything else that traces sees the vendor-neutral @opentelemetry/api only (the application layer not even that).',
      severity: 'error',
      from: { pathNot: [layer('infrastructure/observability')] },
      to: {
        path: '(^|/)node_modules/@opentelemetry/(?!api/|semantic-conventions/)',
      },
    },
    {
      name: 'only-the-sqlite-driver-module-loads-better-sqlite3',
      comment:
        'better-sqlite3 13, or 12 (better-sqlite3-node20) on Node.js 20: sqlite-driver.ts picks the one for the running line, ' +
        'so that the Node.js 20 path stays one small change to remove (docs/adr/0001).',
      severity: 'error',
      from: { pathNot: ['(^|/)src/infrastructure/persistence/typeorm/sqlite-driver\\.ts$'] },
      to: { path: '(^|/)node_modules/better-sqlite3(-node20)?/' },
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
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['require', 'node', 'default', 'types'] },
  },
};
