// Walks the server's own OpenAPI document and sends every route malformed input: broken JSON, wrong types,
// missing and extra fields, over-long strings, control characters, a 1 MB string. Nothing may answer 5xx or
// leak an internal name, /api errors keep their { code, message } shape, and the server stays healthy. New
// routes join by themselves: the cases come from the document, not from a list.
import { describeEachDialect } from '../helpers';
import { startLoginServerOn } from '../login/loginServer';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}
interface Operation {
  parameters?: { name: string; in: 'query' | 'path' | 'header'; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
interface Case {
  name: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const LEAKS = /\bat [\w.<>]+ \(|\.ts:\d+|node_modules|FST_|SQLITE_|kysely|"stack"|ECONNREFUSED|TypeError|ReferenceError/i;
const CONTROL = 'a\u0000b\u0007c\u001b[31m\u202e';
const LONG = 'x'.repeat(10_000);
const MEGABYTE = 'y'.repeat(1024 * 1024);

/** A value of the wrong type for a schema, and odd values of the right one. */
function oddValues(schema: Schema | undefined): unknown[] {
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  switch (type) {
    case 'string':
      return [12345, true, null, [], {}, '', LONG, CONTROL];
    case 'integer':
    case 'number':
      return ['twelve', -1, 1e308, 1.5, null, []];
    case 'boolean':
      return ['yes', 1, null];
    case 'array':
      return ['not-a-list', [null, 1, CONTROL], {}];
    case 'object':
      return ['not-an-object', [], null];
    default:
      return [null, CONTROL];
  }
}

function casesFor(path: string, method: string, operation: Operation, bearer: string): Case[] {
  const pathParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
  const fill = (value: string) => pathParameters.reduce((url, parameter) => url.replace(`{${parameter.name}}`, encodeURIComponent(value)), path);
  const base = fill('sample');
  const cases: Case[] = [];
  for (const value of ['..%2f..%2fetc%2fpasswd', CONTROL, LONG.slice(0, 3000)]) if (pathParameters.length) cases.push({ name: `path ${value.slice(0, 10)}`, url: fill(value), headers: {} });
  for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'query')) {
    for (const value of oddValues(parameter.schema)) cases.push({ name: `query ${parameter.name}=${String(value).slice(0, 10)}`, url: `${base}?${parameter.name}=${encodeURIComponent(String(value))}`, headers: {} });
  }
  for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'header')) {
    for (const value of ['Bearer ' + LONG.slice(0, 4000), 'Bearer x.y.z', '\u00ff\u00fe', '']) cases.push({ name: `header ${parameter.name}`, url: base, headers: { [parameter.name]: value } });
  }
  const body = operation.requestBody?.content?.['application/json']?.schema;
  if (body || method === 'post' || method === 'put') {
    // Past the token check, so that the body rules are reached too.
    const needsToken = (operation.parameters ?? []).some((parameter) => parameter.in === 'header' && parameter.name === 'authorization');
    const json: Record<string, string> = { 'content-type': 'application/json', ...(needsToken ? { authorization: `Bearer ${bearer}` } : {}) };
    cases.push({ name: 'malformed JSON', url: base, headers: json, payload: '{"a":' });
    cases.push({ name: 'JSON array', url: base, headers: json, payload: '[1,2]' });
    cases.push({ name: 'empty object', url: base, headers: json, payload: '{}' });
    cases.push({ name: 'not JSON', url: base, headers: { ...json, 'content-type': 'text/plain' }, payload: 'hello' });
    cases.push({ name: '1 MB string', url: base, headers: json, payload: JSON.stringify({ data: MEGABYTE }) });
    const properties = body?.properties ?? {};
    const valid: Record<string, unknown> = Object.fromEntries(Object.keys(properties).map((name) => [name, 'sample']));
    cases.push({ name: 'extra field', url: base, headers: json, payload: JSON.stringify({ ...valid, unexpected: CONTROL }) });
    for (const [name, schema] of Object.entries(properties)) {
      for (const value of oddValues(schema)) cases.push({ name: `body ${name}=${JSON.stringify(value)?.slice(0, 12)}`, url: base, headers: json, payload: JSON.stringify({ ...valid, [name]: value }) });
      const { [name]: _left, ...missing } = valid;
      cases.push({ name: `body without ${name}`, url: base, headers: json, payload: JSON.stringify(missing) });
    }
  }
  return cases;
}

describeEachDialect('every route of the OpenAPI document, fed malformed input', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    // Listening on its own address: the server reaches its embedded identity and storage endpoints over HTTP.
    server = await startLoginServerOn(dialect, { RATE_LIMIT_MAX: '1000000', RATE_LIMIT_SENSITIVE_MAX: '1000000' });
  });
  afterAll(() => server.close());

  it('answers no 5xx, keeps the error shapes, leaks nothing, and stays healthy', async () => {
    await server.app.ready();
    const document = server.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const failures: string[] = [];
    const bearer = await server.app.onboardingTokens.issue('fuzz-application');
    let sent = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const fuzz of casesFor(path, method, operation, bearer)) {
          const response = await server.app.inject({ method: method.toUpperCase() as 'GET', url: fuzz.url, headers: fuzz.headers, payload: fuzz.payload });
          sent += 1;
          const where = `${method.toUpperCase()} ${path} (${fuzz.name}) → ${response.statusCode}`;
          if (response.statusCode >= 500) failures.push(`${where}: ${response.body.slice(0, 200)}`);
          if (LEAKS.test(response.body)) failures.push(`${where} leaks: ${response.body.slice(0, 200)}`);
          if (path.startsWith('/api/') && response.statusCode >= 400) {
            const body = (() => {
              try {
                return JSON.parse(response.body) as { code?: unknown; message?: unknown };
              } catch {
                return undefined;
              }
            })();
            if (!body || typeof body.code !== 'string' || !/^[A-Z][A-Z0-9_]+$/.test(body.code) || typeof body.message !== 'string') {
              failures.push(`${where}: not { code, message }: ${response.body.slice(0, 200)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // Every route was reached, with a fair number of cases each.
    expect(sent).toBeGreaterThan(10 * Object.keys(document.paths).length);
    expect((await server.app.inject('/health')).statusCode).toBe(200);
  }, 240_000);
});
