// Loaded before the server with `node --import` (docs/server.md, "Watching it"): the instrumentations hook the
// packages they trace as those are required, so they must be in place first. Without an OTLP endpoint for traces
// (the embedded setup) nothing is loaded or patched, and the server runs exactly as without this file.
import { exportsOtlp } from './telemetry/settings';

if (exportsOtlp(process.env, 'traces')) {
  // Required here rather than imported, so that the SDK and the instrumentations load only when traces are on.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./telemetry/tracing') as typeof import('./telemetry/tracing')).startTracing();
}
