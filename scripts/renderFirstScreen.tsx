// `npm run build`, after webpack: the login screen the page draws before the app runs, one file per language
// in dist/ (src/config/firstPage.ts, FIRST_SCREEN), from the app's own components and the locale files.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { FIRST_SCREEN } from '../src/config/firstPage';
import { LOCALES } from '../src/i18n/locale';

const ROOT = path.resolve(__dirname, '..');

// The components import their style sheets for webpack; drawn here, they are markup only.
(Module as unknown as { _extensions: Record<string, (module: { exports: unknown }) => void> })._extensions['.css'] = (module) => {
  module.exports = {};
};
// Loaded after the line above, so that the style sheets' imports find it. The one script that takes browser code
// from src/: it draws the browser's own screen, at build time.
// eslint-disable-next-line @typescript-eslint/no-require-imports, import/no-restricted-paths
const { renderFirstLoginScreen } = require('../src/app/firstScreen') as typeof import('../src/app/firstScreen');

for (const locale of LOCALES) {
  const messages = JSON.parse(readFileSync(path.join(ROOT, 'locales', `${locale}.json`), 'utf8')) as Record<string, string>;
  const file = path.join(ROOT, 'dist', FIRST_SCREEN.file(locale));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, renderFirstLoginScreen(locale, messages));
  console.log(`first screen: ${path.relative(ROOT, file)}`);
}
