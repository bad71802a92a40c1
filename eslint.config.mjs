import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = import.meta.dirname;
const at = (relative) => path.join(root, relative);
const folders = (relative) => readdirSync(at(relative), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);

const features = folders('src/features');
/** What a feature may take from another: its endpoints, and the upload field the wizard embeds. */
const featurePublic = [at('src/features/*/*Api.ts'), at('src/features/documents/DocumentUpload.*')];
/** The folders the server and the scripts share with the browser: no React, no DOM-only code. */
const isomorphic = ['./validation', './config', './i18n/locale.ts', './data', './routing/routes.ts', './storage/signedInHint.ts', './onboarding', './documentStorage'];
/** Shared browser code: everything in src/ but the features and the app that composes them. */
const sharedBrowser = folders('src').filter((name) => name !== 'features' && name !== 'app').map((name) => `./src/${name}`);

// The layers, as docs/architecture.md states them: shared → features → app, and the server beside the browser.
const boundaryZones = [
  { target: sharedBrowser, from: ['./src/features', './src/app'], message: 'Shared code never reaches into features or the app.' },
  {
    target: isomorphic.map((folder) => path.join('./src', folder)),
    from: ['./src/components', './src/forms', './src/services'],
    message: 'Modules the server shares never import browser-only code.',
  },
  {
    target: './src/features',
    from: './src/app',
    // areas.ts: the login screen starts fetching the SMS step's code while the password is checked.
    except: ['./hooks.ts', './listenerMiddleware.ts', './screens/areas.ts'],
    message: 'A feature takes from app/ only its typed hooks, its listener types and prefetchArea.',
  },
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: at(`src/features/!(${name})/**`),
    except: featurePublic,
    message: 'Another feature offers only its endpoints (*Api.ts); the slices are in src/state/.',
  })),
  { target: './src', from: './server', message: 'The browser never imports server code.' },
  { target: ['./server', './scripts'], from: './src', except: isomorphic, message: 'The server and the scripts take only browser-free modules from src/.' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'dist-lambdas/**', 'dist-server/**', 'deploy/cdk.out/**', 'data/**', 'coverage/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.jest } },
    plugins: { 'react-hooks': reactHooks, import: importPlugin },
    // Without extensions the resolver finds no .ts module, and a path rule then checks nothing.
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      'import/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
    },
  },
  {
    files: ['scripts/**', 'server/**', 'e2e/**', '*.config.*'],
    rules: { 'no-console': 'off' },
  },
  {
    // The built server is one bundle per program (scripts/buildServer.mjs), whose modules share one __dirname:
    // a path read at run time starts from server/paths.ts, which knows where the bundle sits.
    files: ['server/**/*.ts', 'src/**/*.ts', 'scripts/admin.ts', 'scripts/staffCommands.ts'],
    ignores: ['server/paths.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['__dirname', '__filename'].map((name) => ({ name, message: 'The bundle has one for all its modules: start from atRoot() of server/paths.ts.' })),
      ],
    },
  },
  {
    files: ['babel.config.js', 'jest.config.js', 'jest.aws.config.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
