import fs from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const DOMAIN_LIBS = ['accounts', 'identity', 'oauth', 'usermgmt', 'webhooks', 'images', 'scheduling'];

/**
 * A domain's collections are written by its owning worker only: the writer factory of each domain lib may be
 * imported there and nowhere else in apps/ (gateways, the web app and the CLI read through the domain's
 * store, or send commands). Tests and benchmarks set up data as they need.
 */
const WRITERS = [
  { lib: '@platform/scheduling', name: 'createSchedulingWriter', owner: 'scheduling-worker' },
  { lib: '@platform/oauth', name: 'createOAuthWriter', owner: 'oauth-worker' },
  { lib: '@platform/usermgmt', name: 'createUsermgmtWriter', owner: 'usermgmt-worker' },
  { lib: '@platform/notifications', name: 'createNotificationsWriter', owner: 'notifier' },
  { lib: '@platform/links', name: 'createLinksWriter', owner: 'links-worker' },
  { lib: '@platform/analytics', name: 'createAnalyticsWriter', owner: 'analytics-aggregator' },
];
const APPS = fs
  .readdirSync(new URL('./apps', import.meta.url))
  .filter((d) => fs.existsSync(new URL(`./apps/${d}/package.json`, import.meta.url)));
const APPS_IMPORT_LIBS_ONLY = {
  group: ['../../*/src/**', '**/apps/*/src/**'],
  message: 'apps import libs, never each other',
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**', 'bench/results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Boundaries: an app imports libs, never another app; a domain lib never imports another domain lib.
    files: ['libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/**', '@platform/*-gateway', '@platform/*-worker'], message: 'libs never import apps' },
          ],
        },
      ],
    },
  },
  // Domain libraries talk through events, never imports.
  ...DOMAIN_LIBS.map((domain) => ({
    files: [`libs/${domain}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: DOMAIN_LIBS.filter((other) => other !== domain).map((other) => ({
            name: `@platform/${other}`,
            message: 'domains talk through events, not imports',
          })),
          patterns: [
            { group: ['**/apps/**', '@platform/*-gateway', '@platform/*-worker'], message: 'libs never import apps' },
          ],
        },
      ],
    },
  })),
  ...APPS.map((app) => ({
    files: [`apps/${app}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: WRITERS.filter((w) => w.owner !== app).map((w) => ({
            name: w.lib,
            importNames: [w.name],
            message: `only ${w.owner} writes this domain's data: read through its store, or send it a command`,
          })),
          patterns: [APPS_IMPORT_LIBS_ONLY],
        },
      ],
    },
  })),
);
