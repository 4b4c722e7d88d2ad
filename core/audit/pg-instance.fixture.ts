// Test helper process: one server instance on a PostgreSQL database, as `svc serve` with SVC_DATABASE_URL will be
// once every domain has moved (then the test spawns `svc serve` instead and reads the same line). Prints one JSON
// line {url, key}: its loopback address and an API key; serves until it is killed.
import { createApp } from '../app.ts';
import { startListener } from '../http/listen.ts';
import { createApiKey } from '../identity/api-keys/service.ts';
import { connectPostgres, postgresDatabase } from '../store/postgres-database.ts';

const [databaseUrl] = process.argv.slice(2);
if (!databaseUrl) throw new TypeError('usage: DATABASE_URL');
const pool = await connectPostgres(databaseUrl, { source: 'fixture database', max: 8 });
const app = createApp({ dataDir: ':memory:', env: {}, database: postgresDatabase(pool) });
const listener = await startListener(app, { port: 0, logRequests: false });
const { secret } = await createApiKey(app, { tier: 'api', scopes: [], name: 'ingest fixture' });
process.stdout.write(`${JSON.stringify({ url: listener.url, key: secret })}\n`);
