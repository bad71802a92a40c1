// Loaded with `node --import` before a server process under test, in place of server/instrumentation.ts: the same
// tracing (startTracing), its spans written as JSON lines to TEST_SPANS_FILE instead of sent to an OTLP endpoint,
// so the test reads what an exporter would have been given.
import { appendFileSync } from 'node:fs';
import { SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { startTracing } from '../../../server/telemetry/tracing';

/** A finished span as the test reads it. */
export interface WrittenSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  scope: string;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  events: { name: string; attributes?: Record<string, unknown> }[];
}

const written = (span: ReadableSpan): WrittenSpan => ({
  name: span.name,
  kind: span.kind,
  traceId: span.spanContext().traceId,
  spanId: span.spanContext().spanId,
  parentSpanId: span.parentSpanContext?.spanId,
  scope: span.instrumentationScope.name,
  attributes: { ...span.attributes },
  status: span.status,
  events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
});

const file = process.env.TEST_SPANS_FILE;
if (!file) throw new Error('TEST_SPANS_FILE must name the file the spans are written to');

const toFile: SpanExporter = {
  export(spans, done) {
    appendFileSync(file, spans.map((span) => `${JSON.stringify(written(span))}\n`).join(''));
    // ExportResultCode.SUCCESS
    done({ code: 0 });
  },
  shutdown: async () => undefined,
};

startTracing({ spanProcessors: [new SimpleSpanProcessor(toFile)] });
