import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.js';

export async function appsRoutes(_app: FastifyInstance, _deps: RouteDeps) {}
