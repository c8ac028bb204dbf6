// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/engine/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['ink', 'ink-*', 'react', 'react/*', 'react-*', '@inkjs/*'],
              message: 'src/engine must stay UI-free: no ink/react imports.',
            },
            { group: ['**/ui/**', '**/modes/**'], message: 'src/engine must not depend on the UI or modes layers.' },
          ],
        },
      ],
    },
  },
  // src/core is pure: it imports nothing outside itself (no node: modules, no packages, no other layer) and
  // reaches no process, timer, console or Node global.
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...[
          'process',
          'Buffer',
          'setTimeout',
          'setInterval',
          'setImmediate',
          'console',
          'require',
          'fetch',
          'global',
          'globalThis',
          '__dirname',
          '__filename',
        ].map((name) => ({ name, message: 'src/core is pure: no I/O, timers or Node globals.' })),
      ],
    },
  },
  {
    files: ['src/core/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!\\./)', message: 'src/core is pure: import only from src/core itself.' }] },
      ],
    },
  },
  {
    files: ['src/core/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!\\./|\\.\\./(?!\\.\\./))', message: 'src/core is pure: import only from src/core itself.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
