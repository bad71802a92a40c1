import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-lambdas/**', 'deploy/cdk.out/**', 'data/**', 'coverage/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.jest } },
    plugins: { 'react-hooks': reactHooks, import: importPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      // Shared code never reaches into features, features never into each other's internals or into app/.
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/components', from: ['./src/features', './src/app'] },
            { target: './src/validation', from: ['./src/features', './src/app', './src/components', './server'] },
            { target: './src/features', from: './src/app', except: ['./hooks.ts', './listenerMiddleware.ts', './storeTypes.ts'] },
            { target: './src', from: './server' },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'server/**', 'e2e/**', '*.config.*'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['babel.config.js', 'jest.config.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
