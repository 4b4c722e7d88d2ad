// Op dispatch overhead through HTTP: `GET /v1/svc/ping` (authentication, op lookup, zod parse, handler, envelope)
// against a bare Fastify route on the same server, same process, same run. Printed as a ratio.
import { createApp } from '../core/app.ts';
import { createApiKey } from '../core/identity/api-keys/service.ts';
import { load, printRow, ratio, startBenchServer } from './support.ts';

const app = createApp({ dataDir: ':memory:', env: {} });
const { server, origin } = await startBenchServer(app, '/bench/bare');
const key = (await createApiKey(app, { tier: 'free', name: 'bench' })).secret;

const bare = await load(`${origin}/bench/bare`);
const viaOp = await load(`${origin}/v1/svc/ping`, { headers: { authorization: `Bearer ${key}` } });
const viaRpc = await load(`${origin}/api/ops/svc.ping`, {
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: '{}',
});
console.log('\n# HTTP op dispatch overhead (same server, same run)');
printRow('bare Fastify route', `${bare.requestsPerSecond.toFixed(0)} req/s, p50 ${bare.p50Ms} ms, p99 ${bare.p99Ms} ms`);
printRow(
  'REST op GET /v1/svc/ping (auth + dispatch)',
  `${viaOp.requestsPerSecond.toFixed(0)} req/s, p50 ${viaOp.p50Ms} ms, p99 ${viaOp.p99Ms} ms`,
);
printRow('RPC op POST /api/ops/svc.ping', `${viaRpc.requestsPerSecond.toFixed(0)} req/s, p50 ${viaRpc.p50Ms} ms, p99 ${viaRpc.p99Ms} ms`);
printRow('ratio REST op / bare', ratio(viaOp.requestsPerSecond, bare.requestsPerSecond));
printRow('ratio RPC op / bare', ratio(viaRpc.requestsPerSecond, bare.requestsPerSecond));
if (bare.errors + viaOp.errors + viaRpc.errors > 0) console.log(`errors: ${bare.errors} / ${viaOp.errors} / ${viaRpc.errors}`);
await server.close();
app.close();
