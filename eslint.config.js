import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const DOMAIN_LIBS = ['accounts', 'identity', 'oauth', 'usermgmt', 'webhooks', 'images', 'scheduling'];

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
        { patterns: [{ group: ['**/apps/**', '@platform/*-gateway', '@platform/*-worker'], message: 'libs never import apps' }] },
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
          patterns: [{ group: ['**/apps/**', '@platform/*-gateway', '@platform/*-worker'], message: 'libs never import apps' }],
        },
      ],
    },
  })),
  {
    files: ['apps/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['../../*/src/**', '**/apps/*/src/**'], message: 'apps import libs, never each other' }] }],
    },
  },
);
