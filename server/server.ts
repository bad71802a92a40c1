import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';

/** Stops with one line on standard error: no stack trace for a mistake in the environment. */
function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`Configuration error: ${error.message}`);
    throw error;
  }

  const app = await buildApp(config);
  let closing = false;
  // SIGTERM (ECS stopping the task, after the load balancer stopped sending it requests): /health fails, the
  // listener closes, idle connections close, requests in flight finish with their answers (each closing its
  // connection), then the pools, workers and timers close and the process exits 0. Within
  // SHUTDOWN_GRACE_SECONDS, under ECS's stop timeout; past it, it stops anyway (exit 1).
  const close = (signal: string) => {
    // A second signal means "now": the operator does not want to wait for slow requests.
    if (closing) {
      app.log.warn({ event: 'shutdown.forced', signal }, 'second signal: stopping now');
      process.exit(1);
    }
    closing = true;
    app.log.info({ event: 'shutdown.started', signal, graceSeconds: config.shutdownGraceMs / 1000 }, 'shutting down');
    setTimeout(() => {
      app.server.getConnections((_error, connections) => {
        app.log.error({ event: 'shutdown.timeout', connections, open: process.getActiveResourcesInfo() }, 'the shutdown did not finish in time; stopping anyway');
        process.exit(1);
      });
    }, config.shutdownGraceMs).unref();
    app.close().then(
      () => {
        // No exit call: the process ends once nothing holds it open, which every pool, worker and timer must
        // allow once closed. Something left open keeps it until the bound, which says what it was.
        app.log.info({ event: 'shutdown.done' }, 'shut down');
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => close('SIGINT'));
  process.on('SIGTERM', () => close('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close().catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') fail(`Port ${config.port} is already in use on ${config.host}: set PORT to another port.`);
    throw error;
  }
  console.log(`Divilo is running at ${config.publicUrl} (listening on ${config.host}:${config.port})`);
}

main().catch((error: unknown) => {
  // Startup failures (database unreachable, a failed migration, ...) are logged whole: they need the detail.
  console.error('The server could not start:', error);
  process.exit(1);
});
