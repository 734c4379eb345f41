import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';

/** CORS for the endpoints of SPEC §5 (CONTRACT §5). */
export async function registerCors(_app: FastifyInstance, _services: Services) {}
