import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/build/**', 'data/**', 'packages/sdk/src/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: "Application code uses zod 4 from 'zod/v4'." }] },
      ],
    },
  },
  {
    // Only repositories (and the platform's database layer) write SQL.
    files: ['apps/api/src/modules/**/*.ts'],
    ignores: ['apps/api/src/modules/**/*.repository.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zod', message: "Application code uses zod 4 from 'zod/v4'." },
            { name: 'kysely', importNames: ['sql'], message: 'SQL lives in *.repository.ts.' },
          ],
        },
      ],
    },
  },
  {
    // A feature never imports another (shared pieces live in src/components, src/lib, src/testing). Every
    // feature file sits at features/<feature>/<role>/<file>, so ../../<name>/ is always another feature.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: "Application code uses zod 4 from 'zod/v4'." }],
          patterns: [
            {
              group: ['../../*/**', '!../../../**'],
              message: 'Features do not import each other: move what they share to src/components or src/lib.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON bodies of many shapes.
    files: ['**/test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
