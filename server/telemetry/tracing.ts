// Traces of the server's requests and of what each one calls: the database (pg), Redis (ioredis), AWS (the SDK's
// own calls) and plain fetch (the identity service's keys, an SMS provider). The instrumentations patch those
// packages as they are required, so this runs before the server's modules load (server/instrumentation.ts) and
// works only while they come from node_modules. Nothing a span records carries a secret: no SQL parameters, no
// Redis arguments, no query value the logs would hide, no phone number.
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { AwsInstrumentation } from '@opentelemetry/instrumentation-aws-sdk';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { redactQuery } from '../logging';
import { serviceResource } from './resource';

/** Requests nobody needs a trace of: the load balancer's health checks, every 15 s per server, and a scrape of /metrics. */
const UNTRACED = new Set(['/health', '/metrics']);

const pathOf = (url: string | undefined) => (url ?? '/').split('?')[0];

/** An outgoing URL as a span keeps it: no user or password, secret query values replaced. */
function shownUrl(raw: string): string {
  const url = new URL(raw);
  url.username = '';
  url.password = '';
  return `${url.origin}${url.pathname}${url.search ? `?${redactQuery(url.search.slice(1))}` : ''}`;
}

/** What a request's server span is named and keeps: its route (not the address, which may carry an id) and method. */
function describeRequest(span: Span, request: { method: string; url: string; routeOptions: { url?: string } }) {
  span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`);
  // @fastify/otel records the whole address, query included.
  span.setAttribute('url.path', pathOf(request.url));
}

/**
 * Starts tracing: spans of every instrumented call, batched to the OTLP endpoint of the OTEL_* variables unless
 * `spanProcessors` says otherwise (tests). No propagator is registered: the server is where a trace starts (a
 * `traceparent` from the internet chooses nothing) and its calls tell nobody outside their trace id.
 */
export function startTracing(options: { spanProcessors?: SpanProcessor[] } = {}): NodeTracerProvider {
  const provider = new NodeTracerProvider({
    resource: serviceResource(),
    spanProcessors: options.spanProcessors ?? [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register({ propagator: null });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // The server span of every request, made before Fastify sees it, so each of the request's log lines carries its ids.
      new HttpInstrumentation({
        disableOutgoingRequestInstrumentation: true,
        ignoreIncomingRequestHook: (request) => UNTRACED.has(pathOf(request.url)),
        startIncomingSpanHook: (request) => {
          const at = request.url?.indexOf('?') ?? -1;
          return at < 0 ? {} : { 'url.query': redactQuery(request.url!.slice(at + 1)) };
        },
      }),
      // The route it took, and the handler's own span (the hooks' spans would be dozens per request).
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        instrumentHooks: false,
        ignorePaths: (route: { url: string }) => UNTRACED.has(pathOf(route.url)),
        requestHook: describeRequest,
      }),
      // The statement's text only: its values are never recorded (enhancedDatabaseReporting stays off).
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
      // The command's name only: keys name clients, arguments may be anything.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      new AwsInstrumentation({
        suppressInternalInstrumentation: true,
        // An SMS published straight to a phone would name the number as its destination.
        preRequestHook: (span, { request }) => {
          if (request.serviceName === 'SNS' && request.commandInput?.PhoneNumber !== undefined) {
            span.setAttributes({ 'messaging.destination': 'phone_number', 'messaging.destination.name': 'phone_number' });
          }
        },
      }),
      new UndiciInstrumentation({
        requireParentforSpans: true,
        startSpanHook: (request) => {
          const full = shownUrl(new URL(request.path, request.origin).toString());
          const query = full.indexOf('?');
          return { 'url.full': full, ...(query < 0 ? {} : { 'url.query': full.slice(query) }) };
        },
      }),
    ],
  });
  return provider;
}
