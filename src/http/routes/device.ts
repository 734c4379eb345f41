import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.js';

export async function deviceRoutes(_app: FastifyInstance, _deps: RouteDeps) {}
