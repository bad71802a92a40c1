// Lints source texts with ESLint's Node API and the repository's config, in a plain Node process: ESLint loads
// its config with a dynamic import, which Jest's module sandbox does not allow. Reads
// `[{ filePath, code }]` as JSON on stdin and writes each text's messages, in the same order, as JSON on stdout.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.mjs') });
const texts = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const { filePath, code } of texts) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  results.push(result.messages.map(({ ruleId, message }) => ({ ruleId, message })));
}
process.stdout.write(JSON.stringify(results));
