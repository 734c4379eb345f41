import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.js';

export async function pagesRoutes(_app: FastifyInstance, _deps: RouteDeps) {}
