// The server's AWS SDK clients against a service that accepts connections and never answers, and one that
// hangs up on every request: each call gives up after its bounded attempts, well within the time a person waits,
// and the request that made it answers 503 SERVICE_UNAVAILABLE (not a hang, not a 500).
import { createServer, type Server, type Socket } from 'node:net';
import Fastify from 'fastify';
import { errorsPlugin } from '../../server/plugins/errors';
import { createDocumentService } from '../../server/services/documents';
import { createIdentityService } from '../../server/services/identity';
import { ATTEMPT_TIMEOUT_MS, CONNECT_TIMEOUT_MS, MAX_ATTEMPTS } from '../../server/services/outboundCalls';

const credentials = { accessKeyId: 'AKIAOUTAGE000000000', secretAccessKey: 'outage' };

/** A TCP service that takes connections and then, per `behaviour`, says nothing or hangs up at the first byte. */
async function brokenService(behaviour: 'silent' | 'hang-up') {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (behaviour === 'hang-up') socket.once('data', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The answer a route gives when its call failed with `error`. */
async function answerFor(error: unknown) {
  const app = Fastify();
  await app.register(errorsPlugin);
  app.get('/step', async () => {
    throw error;
  });
  const response = await app.inject({ method: 'GET', url: '/step' });
  await app.close();
  return { status: response.statusCode, retryAfter: response.headers['retry-after'], body: response.json() as Record<string, unknown> };
}

/** The most a call may take: every attempt to its limit, and the retry's backoff (at most a second between two). */
const BOUND_MS = MAX_ATTEMPTS * (CONNECT_TIMEOUT_MS + ATTEMPT_TIMEOUT_MS) + 1000 * (MAX_ATTEMPTS - 1);

describe('calls to a service that does not answer', () => {
  it('are limited to a few seconds in all: fewer than ten', () => {
    expect(BOUND_MS).toBeLessThan(15_000);
    expect(MAX_ATTEMPTS * ATTEMPT_TIMEOUT_MS + 1000).toBeLessThanOrEqual(10_000);
  });

  it.each(['silent', 'hang-up'] as const)('the identity service %s: the call gives up after its attempts, and the request answers 503', async (behaviour) => {
    const service = await brokenService(behaviour);
    const identity = createIdentityService({ region: 'eu-west-1', userPoolId: 'eu-west-1_Outage', clientId: 'web', endpoint: service.endpoint, credentials, jwks: { keys: [] } });
    try {
      const started = Date.now();
      const failure = await identity.getUser('12345678Z').then(
        () => undefined,
        (error: unknown) => error,
      );
      // Generous for a busy machine: the point is that it ends, not how fast.
      expect(Date.now() - started).toBeLessThan(BOUND_MS + 5000);
      expect(failure).toBeInstanceOf(Error);
      expect(service.connections()).toBe(MAX_ATTEMPTS);
      expect(await answerFor(failure)).toEqual({ status: 503, retryAfter: '5', body: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
    } finally {
      identity.destroy();
      await service.close();
    }
  }, 60_000);

  it('storage and the identity pool silent: the document check and the storage identity answer 503', async () => {
    const service = await brokenService('silent');
    const documents = createDocumentService({
      identity: { region: 'eu-west-1', endpoint: service.endpoint, identityPoolId: 'eu-west-1:00000000-0000-4000-8000-000000000001', developerProvider: 'login.divilo', credentials },
      storage: { region: 'eu-west-1', endpoint: service.endpoint, bucket: 'documents', maxDocumentBytes: 1024 * 1024, credentials },
    });
    try {
      const failures = await Promise.all([
        documents.storageIdentity('application-1').catch((error: unknown) => error),
        documents.remove('private/eu-west-1:x/model036/a.pdf').catch((error: unknown) => error),
      ]);
      for (const failure of failures) expect(await answerFor(failure)).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });
      expect(service.connections()).toBe(2 * MAX_ATTEMPTS);
    } finally {
      documents.close();
      await service.close();
    }
  }, 60_000);

  it('a service answering 503 itself (its retries spent) is 503 too; a refusal of the request stays what it was', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException', $fault: 'client' });
    const serverFault = Object.assign(new Error('We encountered an internal error'), { name: 'InternalErrorException', $fault: 'server' });
    const denied = Object.assign(new Error('not allowed'), { name: 'AccessDeniedException', $fault: 'client' });
    expect((await answerFor(throttled)).status).toBe(503);
    expect((await answerFor(serverFault)).status).toBe(503);
    expect(await answerFor(denied)).toEqual({ status: 500, retryAfter: undefined, body: { code: 'INTERNAL_ERROR', message: 'Something went wrong' } });
  });
});
