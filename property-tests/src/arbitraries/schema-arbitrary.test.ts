import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../../openapi/document/api-document.js';
import { describeErrors } from '../../../openapi/document/document-ajv.js';
import { requestArbitrary } from './request-arbitrary.js';
import { createSchemaArbitraries } from './schema-arbitrary.js';

const document = loadApiDocument();
const schemas = createSchemaArbitraries({ resolve: document.resolve, ajv: document.ajv });
const SAMPLES = 25;

describe('arbitraries derived from the document', () => {
  const withBodies = document.operations.filter((operation) => operation.body);

  it('covers every request body of the document', () => {
    expect(withBodies.length).toBeGreaterThan(40);
  });

  it.each(withBodies.map((operation) => [operation.operationId, operation] as const))(
    'every generated %s body validates against its schema',
    (_, operation) => {
      const validate = document.ajv.compile(operation.body!.schema);
      for (const value of fc.sample(schemas.of(operation.body!.schema), { numRuns: SAMPLES, seed: 42 })) {
        const valid = validate(value);
        expect(valid, `${JSON.stringify(value)}\n${describeErrors(validate).join('\n')}`).toBe(true);
      }
    },
  );

  it('every generated parameter validates against its schema', () => {
    for (const operation of document.operations) {
      for (const parameter of operation.parameters) {
        const validate = document.ajv.compile(parameter.schema);
        for (const value of fc.sample(schemas.of(parameter.schema), { numRuns: 5, seed: 7 })) {
          expect(validate(value), `${operation.operationId} ${parameter.name} ${JSON.stringify(value)}`).toBe(
            true,
          );
        }
      }
    }
  });

  it('requests carry every required parameter and body', () => {
    const operation = document.operation('listTransactions')!;
    for (const request of fc.sample(requestArbitrary(schemas, operation), { numRuns: 10, seed: 1 })) {
      expect(request.query.link).toMatch(/^[0-9a-f-]{36}$/);
    }
    const register = document.operation('registerLink')!;
    const body = fc.sample(requestArbitrary(schemas, register), { numRuns: 1, seed: 1 })[0]!.body;
    expect(body).toMatchObject({ institution: expect.any(String), username: expect.any(String) });
  });

  it('honours overrides of path ids and body members', () => {
    const operation = document.operation('refreshLink')!;
    const arbitrary = requestArbitrary(schemas, operation, {
      path: { id: fc.constant('known-id') },
      body: {},
    });
    for (const request of fc.sample(arbitrary, { numRuns: 5, seed: 3 })) {
      expect(request.pathParams.id).toBe('known-id');
    }
  });
});
