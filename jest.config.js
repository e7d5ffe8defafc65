/**
 * Projects split by suffix, so the fast ones can run alone: `npm run test:unit`. `npm test` runs
 * unit, contract, http, browser and openapi; the slow fault, soak and topology tests run only with
 * their own scripts (`npm run test:reliability`, `test:soak`, `test:topology`).
 */
const os = require('node:os');

const transform = {
  '^.+\\.(ts|js|mjs)$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};

/**
 * ESM-only packages (inversify 8, cuid2, any-ascii and theirs): Node 20 runs them through require(), but
 * Jest's module system does not, so Jest compiles them to CommonJS like the sources.
 */
const ESM_ONLY_PACKAGES = ['inversify', '@inversifyjs', '@paralleldrive', '@noble', '@apidevtools', 'any-ascii'];

const project = (name, extra = {}) => ({
  displayName: name,
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY_PACKAGES.join('|')})/)`],
  testMatch: [`<rootDir>/test/**/*.${name}.test.ts`],
  ...extra,
});

// The contract and HTTP projects need PostgreSQL: TEST_DATABASE_URL, or an embedded server per worker.
const withPostgres = {
  globalSetup: '<rootDir>/test/support/postgres-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/postgres-global-teardown.ts',
};

// The same server for the reliability run, whose teardown also prints the measured table.
const withPostgresAndReport = {
  globalSetup: '<rootDir>/test/support/reliability-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/reliability-global-teardown.ts',
};

module.exports = {
  // Generous per-test time: some tests start databases and processes on a shared two-core machine.
  // Reliability tests set their own, longer bound on each test.
  testTimeout: 30_000,
  // Most tests wait on PostgreSQL, SQLite or a service process rather than on the CPU: Jest's default
  // (cores − 1) leaves a two-core machine one worker and half idle (ADR 0055).
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  // Every failure is printed once more after the last file's output (Jest's default does so past
  // 20 files only): the end of a long run's log, which CI shows, names what failed and how.
  reporters: [['default', { summaryThreshold: 0 }]],
  projects: [
    project('unit'),
    project('contract', withPostgres),
    project('http', withPostgres),
    // The /docs page in headless Chromium, against the built service.
    project('browser'),
    // Standard OpenAPI tools against the service: a validating proxy (Prism) and a generated client.
    project('openapi'),
    project('reliability', withPostgresAndReport),
    // `npm start` on the embedded SQLite under load for a minute (every supported Node.js line in CI).
    project('soak'),
    // The topology of `npm run topology` under faults; brings its own servers up and down.
    project('topology'),
  ],
};
