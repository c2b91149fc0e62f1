/** API-ROOT (choice): GET /api/ answers 200 to valid credentials; authentication refused the others with 401. */
import { type Handler, json } from '../core/handler.js';
import { ok } from '../core/result.js';

export const getApiRoot: Handler = async ({ tenant }) =>
  ok(
    json(200, {
      service: 'Open Finance Data Aggregation and Payments API',
      version: '1.223.0',
      environment: tenant.environment,
    }),
  );
