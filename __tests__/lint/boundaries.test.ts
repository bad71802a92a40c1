// The import boundaries of docs/architecture.md, checked through ESLint's own API with the repository's config:
// each forbidden import must be reported and each allowed one must not. A path rule only sees imports its
// resolver finds, so an extensionless `.ts` import reported here is also the proof that the resolver works.
import { execFile } from 'node:child_process';
import path from 'node:path';

const RULE = 'import/no-restricted-paths';

const FORBIDDEN: [string, string, string][] = [
  ['shared UI reaching into a feature', 'src/components/Banner.tsx', '../features/signup/onboardingApi'],
  ['a slice of the store reaching into a feature', 'src/state/extra.ts', '../features/login/loginProblem'],
  ['shared UI reaching into the app', 'src/components/Banner.tsx', '../app/hooks'],
  ['a validator reaching into the app', 'src/validation/extra.ts', '../app/store'],
  ['a validator reaching into a feature', 'src/validation/extra.ts', '../features/signup/useStepForm'],
  ['a validator importing server code', 'src/validation/extra.ts', '../../server/config'],
  ['a module the server shares importing shared UI', 'src/onboarding/extra.ts', '../components/icons'],
  ['a feature taking another feature’s helper', 'src/features/signup/extra.ts', '../login/loginProblem'],
  ['a feature taking another feature’s screen', 'src/features/recovery/extra.tsx', '../login/LoginScreen'],
  ['a feature taking another feature’s listeners', 'src/features/signup/screens/extra.tsx', '../../session/sessionListeners'],
  ['a feature reaching into the app’s store', 'src/features/login/extra.ts', '../../app/store'],
  ['browser code importing server code', 'src/routing/extra.ts', '../../server/services/contract'],
  ['the server importing a browser feature', 'server/services/extra.ts', '../../src/features/signup/onboardingApi'],
  ['the server importing shared browser UI', 'server/routes/extra.ts', '../../src/components/Modal'],
  ['a script importing the app', 'scripts/extra.ts', '../src/app/store'],
];

const ALLOWED: [string, string, string][] = [
  ['a feature dispatching the store’s actions (a slice)', 'src/features/login/extra.ts', '../../state/authSlice'],
  ['a feature using another feature’s endpoints', 'src/features/signup/screens/extra.tsx', '../../documents/documentsApi'],
  ['the wizard embedding the upload field', 'src/features/signup/screens/extra.tsx', '../../documents/DocumentUpload'],
  ['a feature using its own helpers', 'src/features/login/extra.ts', './loginProblem'],
  ['a feature using the app’s typed hooks', 'src/features/login/extra.ts', '../../app/hooks'],
  ['a feature using shared code', 'src/features/login/extra.ts', '../../onboarding/flow'],
  ['the app composing features', 'src/app/extra.ts', '../features/login/loginListeners'],
  ['the server reading the declared flow', 'server/services/extra.ts', '../../src/onboarding/flow'],
  ['the server running the shared validators', 'server/routes/extra.ts', '../../src/validation'],
  ['a script signing with the storage module', 'scripts/extra.ts', '../src/documentStorage/uploadDocument'],
];

const CASES = [...FORBIDDEN, ...ALLOWED];
/** The boundary messages of each case, in CASES order: a file at the case's path (it need not exist) importing its specifier. */
let problems: string[][];

beforeAll(async () => {
  const texts = CASES.map(([, filePath, specifier]) => ({ filePath, code: `import * as imported from '${specifier}';\nexport { imported };\n` }));
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = execFile(process.execPath, [path.join(__dirname, 'lintText.mjs')], (error, out) => (error ? reject(error) : resolve(out)));
    child.stdin?.end(JSON.stringify(texts));
  });
  const results = JSON.parse(stdout) as { ruleId: string | null; message: string }[][];
  problems = results.map((messages) => messages.filter((message) => message.ruleId === RULE).map((message) => message.message));
});

const problemsOf = (specifier: string, file: string) => problems[CASES.findIndex(([, f, s]) => f === file && s === specifier)];

describe('import boundaries', () => {
  it.each(FORBIDDEN)('reports %s', (_case, file, specifier) => {
    const found = problemsOf(specifier, file);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(`Unexpected path "${specifier}"`);
  });

  it.each(ALLOWED)('allows %s', (_case, file, specifier) => {
    expect(problemsOf(specifier, file)).toEqual([]);
  });
});
