// The server: read the settings, build the app, listen; close cleanly on SIGTERM/SIGINT.
import { checkDb, createDb } from '../db/index.js';
import { createApp } from './app.js';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';

async function main(): Promise<void> {
  let config;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const handle = createDb(config.database, { poolSize: config.databasePool });
  await checkDb(handle);
  const app = await createApp({ config, handle });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests');
    // close() stops accepting, waits for requests in flight, then closes the database (onClose).
    const force = setTimeout(() => {
      app.log.error('requests still open after 10 s; exiting anyway');
      process.exit(1);
    }, 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
