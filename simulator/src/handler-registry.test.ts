/**
 * Every operation of the document (the API's and the control API's) has a stateful handler: nothing is
 * left to Prism, which answers only a user's newer document (`document`); `prismFallback`, which had
 * nothing left to answer, is ignored with a deprecation warning.
 */
import { describe, expect, it, vi } from 'vitest';
import { createApiDocument } from '../../openapi/document/api-document.js';
import { readBundledDocument } from '../../openapi/document/bundled-documents.js';
import { contractCheckedSimulator, FIXED_NOW } from '../test-support/contract-checked-simulator.js';
import { DEFAULT_KEYS } from './config/simulator-config.js';
import { ok } from './core/result.js';
import { createTenantRegistry } from './core/tenant-registry.js';
import { createIds, createRandom } from './ids/seeded-ids.js';
import { createPipeline } from './pipeline/pipeline.js';
import { createRouter } from './pipeline/route.js';
import { renderErrors } from './pipeline/serialize.js';
import { createValidator } from './pipeline/validate.js';
import { createSimulator } from './simulator.js';
import { MemoryStore } from './store/memory-store.js';

describe('the handler registry', () => {
  it('serves every operation of the API and control API documents (getDashboardKeys is the dashboard’s)', async () => {
    const { simulator } = await contractCheckedSimulator('registry');
    expect(simulator.unservedOperations).toEqual([]);
  });

  it('prismFallback is ignored, with a deprecation warning (Prism is not loaded for it)', async () => {
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const options = { seed: 'deprecated', environment: 'production' as const, keys: DEFAULT_KEYS };
      const simulator = await createSimulator({ ...options, prismFallback: true });
      expect(simulator.unservedOperations).toEqual([]);
      expect(warned).toHaveBeenCalledWith(expect.stringMatching(/^prismFallback is ignored: /), {
        type: 'DeprecationWarning',
        code: 'OFKIT_PRISM_FALLBACK',
      });
      warned.mockClear();
      await createSimulator(options);
      expect(warned).not.toHaveBeenCalled();
    } finally {
      warned.mockRestore();
    }
  });

  it('without a handler or a fallback, an operation answers 500 in the error array, naming it', async () => {
    const pipeline = createPipeline({
      documents: [createApiDocument(readBundledDocument('api'), { checkSchemas: false })],
      stages: {
        makeRouter: createRouter,
        authenticate: () => ok({ id: 'tenant-a', environment: 'production' }),
        validatorFor: createValidator,
        handlers: new Map(),
        renderSuccess: (response) => response,
        renderErrors,
      },
      tenantFor: createTenantRegistry({
        seed: 'no-handler',
        store: new MemoryStore(),
        environment: 'production',
        realTime: () => FIXED_NOW,
        runJob: async () => undefined,
      }),
      requestIds: createIds(createRandom('no-handler')),
      maxBodyBytes: 1024,
    });
    expect(pipeline.unservedOperations).toContain('getApiRoot');
    const request = {
      method: 'GET',
      path: '/api/',
      query: new URLSearchParams(),
      headers: {},
      body: '',
      origin: 'http://x',
    };
    const answer = await pipeline.handle(request);
    expect(answer.status).toBe(500);
    expect((answer.body as { code: string; message: string }[])[0]).toMatchObject({
      code: 'internal_server_error',
      message: expect.stringContaining('getApiRoot'),
    });
  });
});
