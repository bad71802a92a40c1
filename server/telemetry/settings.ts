// What the server exports and serves about itself, from the environment: OpenTelemetry's standard OTEL_*
// variables for the OTLP export (read here the way the SDK reads them, so the server can tell at start what it
// will do), and METRICS_PORT / METRICS_HOST for the private Prometheus listener. Read by server/instrumentation.ts
// before anything else loads, and checked by the configuration (a wrong value stops the start with one line).

type Env = Record<string, string | undefined>;

export type Signal = 'traces' | 'metrics';

export interface TelemetrySettings {
  /** Whether each signal goes to an OTLP endpoint (http/protobuf): on only when an endpoint is named. */
  otlp: Record<Signal, boolean>;
  /** The listener of `GET /metrics` (Prometheus text), apart from the public one; unset: none. */
  metrics?: { port: number; host: string };
}

/** A telemetry variable that cannot be used: the message names it. */
export class TelemetrySettingError extends Error {}

const read = (env: Env, name: string) => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

const SIGNAL_VARIABLE: Record<Signal, string> = { traces: 'TRACES', metrics: 'METRICS' };

/** The endpoint a signal is sent to (its own variable first, then the shared one), if any. */
export function otlpEndpointOf(env: Env, signal: Signal): string | undefined {
  return read(env, `OTEL_EXPORTER_OTLP_${SIGNAL_VARIABLE[signal]}_ENDPOINT`) ?? read(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
}

/**
 * Whether a signal is exported: the SDK is not disabled (OTEL_SDK_DISABLED), its exporter is OTLP or unnamed
 * (OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER: `none` turns it off) and an endpoint is named. Without an
 * endpoint nothing is exported: the embedded setup sends nothing anywhere unless told to.
 */
export function exportsOtlp(env: Env, signal: Signal): boolean {
  if (read(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return false;
  const exporter = read(env, `OTEL_${SIGNAL_VARIABLE[signal]}_EXPORTER`);
  if (exporter !== undefined && exporter !== 'otlp') return false;
  return otlpEndpointOf(env, signal) !== undefined;
}

/** The variables checked and their meaning; throws TelemetrySettingError naming the first wrong one. */
export function telemetrySettings(env: Env, publicPort: number): TelemetrySettings {
  for (const signal of ['traces', 'metrics'] as const) {
    const name = `OTEL_${SIGNAL_VARIABLE[signal]}_EXPORTER`;
    const exporter = read(env, name);
    if (exporter !== undefined && exporter !== 'otlp' && exporter !== 'none') throw new TelemetrySettingError(`${name} must be otlp or none (got ${JSON.stringify(exporter)})`);
    const endpoint = otlpEndpointOf(env, signal);
    // The endpoint may carry a key in its query or user part: never repeated.
    if (endpoint !== undefined && !/^https?:\/\/[^/?#]+/.test(endpoint)) throw new TelemetrySettingError(`the OTLP endpoint of ${signal} must be an http(s) URL`);
  }
  const protocol = read(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  if (protocol !== undefined && protocol !== 'http/protobuf') throw new TelemetrySettingError(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf, the one the server sends (got ${JSON.stringify(protocol)})`);

  const otlp = { traces: exportsOtlp(env, 'traces'), metrics: exportsOtlp(env, 'metrics') };
  const rawPort = read(env, 'METRICS_PORT');
  if (rawPort === undefined) return { otlp };
  if (!/^\d+$/.test(rawPort) || Number(rawPort) < 1 || Number(rawPort) > 65535) throw new TelemetrySettingError(`METRICS_PORT must be a whole number from 1 to 65535 (got ${JSON.stringify(rawPort)})`);
  const port = Number(rawPort);
  // On the public port the load balancer would route to it.
  if (port === publicPort) throw new TelemetrySettingError('METRICS_PORT must not be PORT: /metrics is served apart from the public listener');
  const host = read(env, 'METRICS_HOST') ?? '127.0.0.1';
  if (!/^([A-Za-z0-9-]{1,63}\.)*[A-Za-z0-9-]{1,63}$|^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*$/.test(host)) {
    throw new TelemetrySettingError(`METRICS_HOST must be a host name or an IP address such as 127.0.0.1 (got ${JSON.stringify(host)})`);
  }
  return { otlp, metrics: { port, host } };
}
