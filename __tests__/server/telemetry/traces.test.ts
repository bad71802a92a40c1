// Traces as a server process makes them, its tracing loaded before its modules as server/instrumentation.ts loads it
// (the instrumentations hook packages as Node requires them, which Jest's own module loader would bypass): an API
// request is a server span with its route and status, its database calls its children on PostgreSQL, each of its
// log lines carries the span's ids, and neither a span nor a log line keeps a secret of its address.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { embeddedStorageCredentials } from '../../../server/plugins/storage';
import { presignGetObject } from '../../../src/documentStorage/uploadDocument';
import { describeEachDialect, freePort, postgresUrlInSchema } from '../helpers';
import { captchaToken } from '../login/loginServer';
import { startServerProcess, type ServerProcess } from '../processes';
import type { WrittenSpan } from './spansToFile';

jest.setTimeout(120_000);

const SPAN_KIND_SERVER = 1;
const SERVER_SECRET = Buffer.alloc(32, 9).toString('base64');

async function onPostgres(statement: string) {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Waits, polling, until `found` answers something (the server span ends as the answer is sent, not before the client reads it). */
async function until<T>(found: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeEachDialect('traces', (dialect) => {
  let dataDir: string;
  let spansFile: string;
  let server: ServerProcess;
  let base: string;
  const schema = `traces_${process.pid}_${randomUUID().replace(/-/g, '').slice(0, 10)}`;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-traces-'));
    spansFile = path.join(dataDir, 'spans.jsonl');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    if (dialect === 'postgres') await onPostgres(`CREATE SCHEMA "${schema}"`);
    server = await startServerProcess(
      {
        PORT: String(port),
        PUBLIC_URL: base,
        DATA_DIR: dataDir,
        SERVER_SECRET,
        LOG_LEVEL: 'info',
        TEST_SPANS_FILE: spansFile,
        ...(dialect === 'postgres' ? { DATABASE_URL: postgresUrlInSchema(process.env.DATABASE_URL!, schema) } : {}),
      },
      { preload: './__tests__/server/telemetry/spansToFile.ts' },
    );
  });
  afterAll(async () => {
    await server?.stop();
    if (dialect === 'postgres') await onPostgres(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const spans = (): WrittenSpan[] =>
    readFileSync(spansFile, { encoding: 'utf8', flag: 'a+' })
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as WrittenSpan);
  const serverSpanOf = (route: string) => until(() => spans().find((span) => span.kind === SPAN_KIND_SERVER && span.attributes['http.route'] === route), `the server span of ${route}`);
  const logLinesOf = (requestId: string) =>
    server.output.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.reqId === requestId);
  /** The request's log lines once its last one is in (written as the answer goes, it may reach the pipe after the client read it). */
  const loggedWhole = (requestId: string) =>
    until(() => {
      const logged = logLinesOf(requestId);
      return logged.some((line) => line.msg === 'request completed') ? logged : undefined;
    }, `the last log line of ${requestId}`);
  /** Whether `span` descends from `ancestor` through the spans written. */
  const descendsFrom = (span: WrittenSpan, ancestor: WrittenSpan) => {
    const byId = new Map(spans().map((each) => [each.spanId, each]));
    for (let parent = span.parentSpanId; parent; parent = byId.get(parent)?.parentSpanId) if (parent === ancestor.spanId) return true;
    return false;
  };

  it('makes an API request a server span with its route and status, its queries children of it on PostgreSQL, and its log lines carry its ids', async () => {
    const token = await captchaToken(`${base}/api`);
    const requestId = `traced-verify-${dialect}`;
    const answer = await fetch(`${base}/api/captcha/verify?${new URLSearchParams({ response: token, sessionId: 'browser-session-1' })}`, { headers: { 'x-request-id': requestId } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ success: true });

    const request = await serverSpanOf('/api/captcha/verify');
    expect(request).toMatchObject({ name: 'GET /api/captcha/verify', attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200, 'url.path': '/api/captcha/verify' } });
    // The captcha's answer is a secret of the query: the span keeps its name, not its value.
    expect(request.attributes['url.query']).toBe('response=%5Bredacted%5D&sessionId=browser-session-1');
    // The route's own span (Fastify's) and the handler's are in the same trace, under the server span.
    const inTrace = spans().filter((span) => span.traceId === request.traceId);
    expect(inTrace.filter((span) => span.scope === '@fastify/otel').map((span) => span.name)).toEqual(expect.arrayContaining(['GET /api/captcha/verify']));

    const queries = inTrace.filter((span) => span.scope === '@opentelemetry/instrumentation-pg');
    if (dialect === 'postgres') {
      expect(queries.length).toBeGreaterThan(0);
      for (const query of queries) expect(descendsFrom(query, request)).toBe(true);
      // The statement's text, never its values.
      const statements = queries.map((query) => String(query.attributes['db.statement'] ?? query.attributes['db.query.text'] ?? ''));
      expect(statements.some((statement) => /insert into "captcha_/i.test(statement))).toBe(true);
      expect(JSON.stringify(queries)).not.toContain('browser-session-1');
    } else {
      // better-sqlite3 has no instrumentation: the request's spans stop at the handler.
      expect(queries).toEqual([]);
    }

    // The last line is written as the answer goes: it may reach the pipe after the client has read it.
    const lines = await loggedWhole(requestId);
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    for (const line of lines) expect(line).toMatchObject({ trace_id: request.traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(JSON.stringify(spans())).not.toContain(token);
    expect(server.output.stdout).not.toContain(token);
  });

  it('keeps a presigned link\'s signature and credentials out of the spans and the log lines of the request that used it', async () => {
    const credentials = embeddedStorageCredentials(Buffer.from(SERVER_SECRET, 'base64'));
    const storage = { region: 'eu-west-1', bucket: 'divilo-documents', endpoint: `${base}/s3` };
    const link = await presignGetObject('private/eu-west-1:reviewer/idFront/front.jpg', { credentials, config: storage, expiresIn: 600 });
    const signature = new URL(link).searchParams.get('X-Amz-Signature')!;
    const credential = new URL(link).searchParams.get('X-Amz-Credential')!;
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    const requestId = `traced-link-${dialect}`;
    // No such document: the answer is the storage's 404, after it looked in the database.
    expect((await fetch(link, { headers: { 'x-request-id': requestId } })).status).toBe(404);

    // A link signed with temporary credentials (a role's, as on AWS) carries their session token too.
    const sessionToken = `FwoGZXIvYXdzE${randomUUID().replace(/-/g, '')}`;
    const temporaryLink = await presignGetObject('private/eu-west-1:reviewer/idFront/back.jpg', { credentials: { ...credentials, sessionToken }, config: storage, expiresIn: 600 });
    expect(temporaryLink).toContain('X-Amz-Security-Token=');
    // A token the storage never issued: refused (InvalidToken), and logged like any request.
    expect((await fetch(temporaryLink, { headers: { 'x-request-id': `${requestId}-temporary` } })).status).toBe(400);
    await loggedWhole(`${requestId}-temporary`);

    const request = await until(() => spans().find((span) => span.kind === SPAN_KIND_SERVER && String(span.attributes['url.path']).endsWith('/front.jpg')), 'the link\'s server span');
    expect(request.attributes['url.query']).toContain('X-Amz-Signature=%5Bredacted%5D');
    expect(request.attributes['url.query']).toContain('X-Amz-Credential=%5Bredacted%5D');
    const lines = await loggedWhole(requestId);
    expect(lines.find((line) => line.msg === 'incoming request')).toMatchObject({ req: { url: expect.stringContaining('X-Amz-Signature=%5Bredacted%5D') } });
    for (const text of [JSON.stringify(spans()), server.output.stdout]) {
      expect(text).not.toContain(signature);
      expect(text).not.toContain(encodeURIComponent(credential));
      expect(text).not.toContain(credential);
      expect(text).not.toContain(sessionToken);
    }
  });
});
