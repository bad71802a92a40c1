import { createServer, type Server } from 'node:http';
import { ProxyTracerProvider, trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { serverMetrics, type ServerMetrics } from '../telemetry/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's counters and gauges (docs/server.md, "Watching it"). */
    metrics: ServerMetrics;
    /** Where GET /metrics answers, once the app is ready (METRICS_PORT; none without it). */
    metricsAddress(): { host: string; port: number } | undefined;
  }
}

/** The tracer provider server/instrumentation.ts registered, if it did: it has spans to flush. */
function tracerProvider(): { forceFlush(): Promise<void> } | undefined {
  const global = trace.getTracerProvider();
  const provider: unknown = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  return typeof (provider as { forceFlush?: unknown }).forceFlush === 'function' ? (provider as { forceFlush(): Promise<void> }) : undefined;
}

/**
 * Every answer counted and timed by route and status class; `GET /metrics` on a listener of its own, bound to
 * METRICS_HOST (127.0.0.1 by default), which the public listener and so the load balancer never serve; the
 * meters pushed over OTLP too when an endpoint is configured. On close, what is left is exported.
 */
export const telemetryPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  const metrics = serverMetrics({ otlp: config.telemetry.otlp.metrics, exportIntervalMs: Number(process.env.OTEL_METRIC_EXPORT_INTERVAL) || undefined });
  app.decorate('metrics', metrics);
  app.addHook('onResponse', async (request, reply) => {
    metrics.request({ method: request.method, route: request.routeOptions.url, status: reply.statusCode, seconds: reply.elapsedTime / 1000 });
  });
  // Whichever route answers it: the health check, or any route the database failed under.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 503 && typeof payload === 'string' && payload.includes('"code":"DATABASE_UNAVAILABLE"')) metrics.databaseUnavailable(request.routeOptions.url);
    return payload;
  });

  let listener: Server | undefined;
  const address = config.telemetry.metrics;
  app.decorate('metricsAddress', () => {
    const bound = listener?.address();
    return bound && typeof bound === 'object' ? { host: bound.address, port: bound.port } : undefined;
  });
  if (address) {
    // Ready, not listening: a port already taken stops the start, as the public one does.
    app.addHook('onReady', async () => {
      const server = createServer((request, response) => {
        if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') return response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
        metrics.text().then(
          (body) => response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(body),
          (error: unknown) => {
            app.log.warn({ err: error }, 'the metrics could not be read');
            response.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be read\n');
          },
        );
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(address.port, address.host, () => resolve());
      });
      listener = server;
    });
  }
  if (config.telemetry.otlp.traces && !tracerProvider()) {
    app.log.warn('an OTLP endpoint for traces is set, but the server was started without server/instrumentation (node --import): no traces are exported');
  }

  app.addHook('onClose', async () => {
    if (listener) await new Promise<void>((resolve) => listener!.close(() => resolve()));
    await Promise.all([metrics.shutdown(), tracerProvider()?.forceFlush()]).catch((error: unknown) => app.log.warn({ err: error }, 'telemetry could not be exported at shutdown'));
  });
});
