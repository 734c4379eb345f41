// The yardstick: a bare Fastify server answering GET /api/v1/auth/me with a fixed JSON object
// of the same size as the service's own `me` answer (BASELINE_BODY), no auth, no database.
import Fastify from 'fastify';

const body = JSON.parse(process.env.BASELINE_BODY ?? '{"ok":true}');
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ ok: true }));
app.get('/api/v1/auth/me', async () => body);
await app.listen({
  port: Number(process.env.PORT ?? 3000),
  host: process.env.HOST ?? '127.0.0.1',
});
for (const signal of ['SIGTERM', 'SIGINT'])
  process.once(signal, () => void app.close().then(() => process.exit(0)));
