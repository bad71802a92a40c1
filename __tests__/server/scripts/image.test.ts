// The server's image without Docker: the Dockerfile's runtime stage replayed into a fresh folder (its COPY lines,
// from the build stage's outputs made here by the build script itself), then its entry run from there with only
// the environment given, as ECS runs it: `admin …` as a one-off task's command, the default command as the
// service. What the programs import must be in the bundle or in the production dependencies, and what they read
// by path must be among the copied files.
//
// Stand-ins, each for a step that cannot run here: the deps stage's `npm ci --omit=dev` is the checkout's install
// seen through a folder holding only the production packages (package-lock.json's entries not marked dev); the
// build stage's dist/ (webpack, minutes) is the checkout's build when there is one, else empty; the remote ADD
// (Amazon RDS's certificates) is not fetched, and the variable naming it is left out; RUN lines are not run.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applicationRepository } from '../../../server/repositories/applicationRepository';
import { makeSandboxSeal } from '../../../server/services/sealCertificate';
import { describeEachDialect, freePort, openTestDatabase, type TestDatabase } from '../helpers';
import { readDockerfile, replayCopies, type Stage } from './dockerImage';

const root = path.resolve(__dirname, '../../..');
/** Who the image's USER stands for here when the tests run as root: nobody, who owns nothing it may not write. */
const UNPRIVILEGED = { uid: 65534, gid: 65534 };

let work: string;
let runtime: Stage;
let inImage: (file: string) => string;
let sealBase64: string;

/** The folder standing for the deps stage's `/`: app/node_modules holding only the production packages. */
function productionModules(stageRoot: string): void {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const modules = path.join(stageRoot, 'app/node_modules');
  for (const [key, entry] of Object.entries(lock.packages)) {
    // Top-level packages only: a package's own node_modules come with its folder.
    if (!/^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) || entry.dev) continue;
    const installed = path.join(root, key);
    // Another platform's optional package is in the lock but not installed.
    if (!existsSync(installed)) continue;
    mkdirSync(path.dirname(path.join(stageRoot, 'app', key)), { recursive: true });
    symlinkSync(installed, path.join(stageRoot, 'app', key));
  }
  expect(existsSync(path.join(modules, 'fastify'))).toBe(true);
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'divilo-image-'));
  chmodSync(work, 0o755);
  const stages = readDockerfile(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
  runtime = stages.at(-1)!;
  expect(stages.map((stage) => stage.image)).toEqual(stages.map(() => 'node:24-bookworm-slim'));

  // The build stage's outputs: its build script run for real, and the SPA's build.
  const build = path.join(work, 'stages/build');
  mkdirSync(path.join(build, 'app'), { recursive: true });
  const built = spawnSync('npm', ['run', '--silent', 'build:server', '--', '--outdir', path.join(build, 'app/dist-server')], { cwd: root, encoding: 'utf8' });
  expect({ status: built.status, stderr: built.status === 0 ? '' : built.stderr }).toEqual({ status: 0, stderr: '' });
  if (existsSync(path.join(root, 'dist/index.html'))) symlinkSync(path.join(root, 'dist'), path.join(build, 'app/dist'));
  else mkdirSync(path.join(build, 'app/dist'));

  const deps = path.join(work, 'stages/deps');
  productionModules(deps);

  const image = path.join(work, 'image');
  inImage = replayCopies(runtime, image, {
    '': root,
    build,
    deps,
    'contract-templates': path.join(root, 'server/data/contract-sample'),
  });
  sealBase64 = (await makeSandboxSeal('seal passphrase', new Date())).toString('base64');
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A data folder the image's user owns, as the image's /var/lib/divilo, with the SQLite database the test made there. */
function dataFolder(dataDir: string): string {
  if (process.getuid?.() !== 0) return dataDir;
  chownSync(dataDir, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
  for (const name of readdirSync(dataDir)) chownSync(path.join(dataDir, name), UNPRIVILEGED.uid, UNPRIVILEGED.gid);
  return dataDir;
}

/** The environment ECS gives the container: the image's ENV, then the deployment's settings and secrets. */
function containerEnv(database: TestDatabase, overrides: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...runtime.env };
  // The downloaded file is not here (no network): a variable naming it would only make Node warn.
  for (const [name, value] of Object.entries(env)) if (runtime.downloads.includes(value)) delete env[name];
  return {
    ...env,
    // Where the image's `node` is; the one running these tests stands for it.
    PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
    DATA_DIR: dataFolder(database.dataDir),
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    HOST: '127.0.0.1',
    PUBLIC_URL: 'https://localhost',
    SERVER_SECRET: Buffer.alloc(32, 7).toString('base64'),
    SMS_PROVIDER_URL: 'https://sms.example/send',
    SMS_PROVIDER_API_KEY: 'sms-api-key',
    SMTP_URL: 'smtps://mail.example',
    MAIL_FROM: 'no-reply@divilo.example',
    SEAL_P12_BASE64: sealBase64,
    SEAL_P12_PASSPHRASE: 'seal passphrase',
    IDENTITY_PROVIDER: 'manual',
    CONTRACT_TEMPLATES_DIR: inImage('/app/contract-templates'),
    // The AWS SDK's notice that it will need Node 22 (docs/deploy.md), on a Node 20 machine only.
    ...(Number(process.versions.node.split('.')[0]) < 22 ? { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } : {}),
    ...overrides,
  };
}

/** The image's entry with `command` (the CMD when none is given), from its working directory, as its USER. */
function runImage(env: Record<string, string>, command: string[] = runtime.cmd) {
  const [entry, ...entryArgs] = runtime.entrypoint;
  const asUser = runtime.user && runtime.user !== 'root' && process.getuid?.() === 0 ? UNPRIVILEGED : {};
  const child = spawn(inImage(entry), [...entryArgs, ...command], { cwd: inImage(runtime.workdir), env, ...asUser });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (output.stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (output.stderr += String(chunk)));
  return Object.assign(child, { output });
}

async function runToEnd(env: Record<string, string>, command: string[]) {
  const child = runImage(env, command);
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, ...child.output };
}

describe('the runtime stage', () => {
  it('holds the built programs and the entry, and none of the TypeScript sources', () => {
    expect(runtime.entrypoint).toEqual(['/app/docker/start.sh']);
    expect(runtime.cmd).toEqual(['server']);
    for (const program of ['server', 'admin']) expect(existsSync(inImage(`/app/dist-server/${program}.cjs`))).toBe(true);
    expect(statSync(inImage('/app/docker/start.sh')).mode & 0o777).toBe(0o755);
    expect(existsSync(inImage('/app/server/server.ts'))).toBe(false);
    expect(existsSync(inImage('/app/scripts/admin.ts'))).toBe(false);
    // Only packages the production install keeps: not the tests' or the build's.
    expect(existsSync(inImage('/app/node_modules/jest'))).toBe(false);
    expect(existsSync(inImage('/app/node_modules/esbuild'))).toBe(false);
    expect(readlinkSync(inImage('/app/node_modules/better-sqlite3'))).toBe(path.join(root, 'node_modules/better-sqlite3'));
  });

  it("runs the face detector's thread from the image's files, its model included", async () => {
    // The path the server starts it from (server/services/faceDetection.ts), one gray photo, no face in it.
    const detect = `
      const { Worker } = require('node:worker_threads');
      const worker = new Worker(require('node:path').join(process.cwd(), 'server/workers/faceDetection.cjs'));
      worker.on('message', (answer) => { console.log(JSON.stringify(answer)); process.exit(0); });
      worker.on('error', (error) => { console.error(error.message); process.exit(1); });
      worker.postMessage({ id: 1, data: new Uint8Array(64 * 64 * 3).fill(128), width: 64, height: 64 });`;
    const child = spawn(process.execPath, ['-e', detect], { cwd: inImage(runtime.workdir), env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual({ id: 1, faces: [] });
  }, 60_000);

  it('admin --help and admin staff --help list the commands', async () => {
    const database = await openTestDatabase('sqlite');
    try {
      const help = await runToEnd(containerEnv(database), ['admin', '--help']);
      expect({ code: help.code, stderr: help.stderr }).toEqual({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: admin \[options\] \[command\]/);
      for (const command of ['list', 'show <id>', 'approve <id>', 'staff']) expect(help.stdout).toContain(`\n  ${command}`);

      const staff = await runToEnd(containerEnv(database), ['admin', 'staff', '--help']);
      expect({ code: staff.code, stderr: staff.stderr }).toEqual({ code: 0, stderr: '' });
      expect(staff.stdout).toMatch(/^Usage: admin staff \[options\] \[command\]/);
      for (const command of ['add', 'disable', 'enable', 'roles', 'show']) expect(staff.stdout).toMatch(new RegExp(`\\n  ${command} `));
    } finally {
      await database.destroy();
    }
  }, 60_000);

  it('answers an unknown command with its usage, and runs nothing', async () => {
    const database = await openTestDatabase('sqlite');
    try {
      const ran = await runToEnd(containerEnv(database), ['server/server.ts']);
      expect(ran.code).toBe(64);
      expect(ran.stderr.trim()).toBe('usage: start.sh server | start.sh admin <command…> (start.sh admin --help lists the commands)');
    } finally {
      await database.destroy();
    }
  });
});

describeEachDialect('the image, run as ECS runs it', (dialect) => {
  let database: TestDatabase;
  let applicationId: string;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    applicationId = (
      await applicationRepository(database.db).create(
        { email: `image-${dialect}@example.com`, idDocument: '12345678Z', answers: { firstName: 'Lucía', firstSurname: 'Martín' }, completedSteps: [], language: 'es' },
        new Date(),
      )
    ).id;
  });
  afterAll(() => database.destroy());

  it("admin list reads the applications from the deployment's database", async () => {
    const listed = await runToEnd(containerEnv(database), ['admin', 'list']);
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
    const [header, row, ...rest] = listed.stdout.trimEnd().split('\n');
    expect(header.split(/\s+/)).toEqual(['id', 'status', 'path', 'risk', 'step', 'days', 'name', 'email']);
    expect(row.split(/\s{2,}/)).toEqual([applicationId, 'in-progress', '-', '-', expect.any(String), '0', 'Lucía Martín', `image-${dialect}@example.com`]);
    expect(rest).toEqual([]);
  }, 60_000);

  it('serves by default: /health, its own pages\' files and texts; the seal only its user reads; SIGTERM reaches the server', async () => {
    const port = await freePort();
    // The collector beside it on AWS: here a listener that takes what OTLP sends and notes where it went.
    const exported: string[] = [];
    const collector = createServer((request, response) => {
      exported.push(request.url ?? '');
      request.resume().on('end', () => response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const otlp = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const server = runImage(containerEnv(database, { PORT: String(port), LOG_LEVEL: 'warn', OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }));
    try {
      const exited = once(server, 'exit');
      const running = new Promise<void>((resolve) => server.stdout.on('data', () => server.output.stdout.includes('Divilo is running at') && resolve()));
      await Promise.race([running, exited.then(() => Promise.reject(new Error(`the server exited:\n${server.output.stderr}${server.output.stdout}`)))]);
      expect(server.output.stdout).toContain('Divilo is running at https://localhost');

      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
      // Read at start from src/ and locales/ (server/paths.ts).
      const css = await fetch(`http://127.0.0.1:${port}/server.css`);
      expect(css.status).toBe(200);
      expect(await css.text()).toContain('.dv-layout');
      expect((await fetch(`http://127.0.0.1:${port}/locales/es.json`)).status).toBe(200);

      // start.sh wrote the seal for the server's user alone, and replaced itself with the server.
      const seal = path.join(database.dataDir, 'bank-seal.p12');
      expect(readFileSync(seal).toString('base64')).toBe(sealBase64);
      expect(statSync(seal).mode & 0o777).toBe(0o600);
      expect(readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0')).toContain(inImage('/app/dist-server/server.cjs'));

      server.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
      expect(server.output.stderr).toBe('');
      // Its instrumentation was loaded first (start.sh): the requests' spans went out as it stopped.
      expect(server.output.stdout).not.toContain('started without server/instrumentation');
      expect(exported).toContain('/v1/traces');
    } finally {
      server.kill('SIGKILL');
      collector.close();
    }
  }, 60_000);
});
