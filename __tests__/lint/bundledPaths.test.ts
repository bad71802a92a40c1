// The built programs are bundles whose modules share one __dirname (scripts/buildServer.mjs): the lint refuses it
// in the code they bundle, so that a path read at run time starts from server/paths.ts.
import { execFile } from 'node:child_process';
import path from 'node:path';

const USE = "import path from 'node:path';\nexport const file = path.join(__dirname, 'data', 'list.json');\n";
const CASES: [string, string][] = [
  ['a server module', 'server/services/extra.ts'],
  ['a module the server shares', 'src/onboarding/extra.ts'],
  ['the admin program', 'scripts/admin.ts'],
  ['server/paths.ts, where the root is found', 'server/paths.ts'],
  ['a test', '__tests__/server/extra.test.ts'],
];

let problems: string[][];
beforeAll(async () => {
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = execFile(process.execPath, [path.join(__dirname, 'lintText.mjs')], (error, out) => (error ? reject(error) : resolve(out)));
    child.stdin?.end(JSON.stringify(CASES.map(([, filePath]) => ({ filePath, code: USE }))));
  });
  problems = (JSON.parse(stdout) as { ruleId: string | null; message: string }[][]).map((messages) =>
    messages.filter((message) => message.ruleId === 'no-restricted-globals').map((message) => message.message),
  );
});

describe('__dirname in bundled code', () => {
  it.each(CASES.slice(0, 3).map((entry, index) => [...entry, index] as const))('is refused in %s', (_case, _file, index) => {
    expect(problems[index]).toEqual([expect.stringContaining('start from atRoot() of server/paths.ts')]);
  });

  it.each(CASES.slice(3).map((entry, index) => [...entry, index + 3] as const))('is allowed in %s', (_case, _file, index) => {
    expect(problems[index]).toEqual([]);
  });
});
