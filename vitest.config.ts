import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the `source` export condition,
// so tests never need a build; the apps' processes in end-to-end suites run the built dist/.
const resolve = { conditions: ['source', 'import', 'default'] };

export default defineConfig({
  resolve,
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    projects: [
      {
        resolve,
        ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
        test: {
          name: 'unit',
          include: ['libs/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'bench/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve,
        ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: ['tests/support/global-setup.ts'],
        },
      },
      {
        resolve,
        ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          globalSetup: ['tests/support/global-setup.ts'],
          fileParallelism: false,
        },
      },
      {
        resolve,
        ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
        test: {
          name: 'k8s',
          include: ['tests/k8s/**/*.test.ts'],
          environment: 'node',
          // kustomize and the CRDs, built or fetched once by deploy/local (cached)
          globalSetup: ['tests/k8s/global-setup.ts'],
        },
      },
    ],
  },
});
