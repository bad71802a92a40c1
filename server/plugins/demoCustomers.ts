import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { IdentityError } from '../services/identity';
import { ONBOARDING_STATUS_ATTRIBUTE } from './identity';

/**
 * Customers that exist on the embedded defaults so a new user can log in at once (see the README). Never
 * in production, never against a real user pool.
 */
export const DEMO_CUSTOMERS = [
  { username: '12345678Z', password: 'Divilo-Demo-2026', phone: '+34600000001', status: 'complete', name: 'Ana García López' },
  { username: 'X1234567L', password: 'Divilo-Demo-2026', phone: '+34600000002', status: 'pending_review', name: 'John Smith' },
] as const;

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles once the demo customers exist (they are made after the server starts listening). */
    demoCustomersReady: Promise<void>;
  }
}

export const demoCustomersPlugin = fp(async (app: FastifyInstance) => {
  let ready: () => void = () => undefined;
  app.decorate('demoCustomersReady', new Promise<void>((resolve) => (ready = resolve)));
  // The identity endpoint answers only once the server listens (the service reaches it over HTTP).
  app.addHook('onListen', async () => {
    await createDemoCustomers(app)
      .catch((error: unknown) => {
        // Stopped right after it started: the identity endpoint went with the listener, and the next start makes them.
        if (!app.shuttingDown()) throw error;
        app.log.info({ event: 'demoCustomers.skipped' }, 'demo customers not made: the server is shutting down');
      })
      .finally(ready);
  });
});

async function createDemoCustomers(app: FastifyInstance) {
  for (const customer of DEMO_CUSTOMERS) {
    if (await app.identity.getUser(customer.username)) continue;
    try {
      await app.identity.createUser(customer.username, customer.phone, { [ONBOARDING_STATUS_ATTRIBUTE]: customer.status, name: customer.name });
      await app.identity.setPassword(customer.username, customer.password, true);
      app.log.info({ username: customer.username }, 'demo customer created');
    } catch (error) {
      if (!(error instanceof IdentityError && error.code === 'USERNAME_EXISTS')) throw error;
    }
  }
}
