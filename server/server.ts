import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';

/** How long requests in flight may take to finish after SIGINT/SIGTERM before the process stops anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

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
  const close = (signal: string) => {
    // A second signal means "now": the operator does not want to wait for slow requests.
    if (closing) process.exit(1);
    closing = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error('requests did not finish in time; stopping anyway');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    // Stops accepting connections, lets requests in flight finish, then closes the database.
    app.close().then(
      () => process.exit(0),
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
