/**
 * `pact check-spec`: every interaction of the pacts must be a valid request of a documented operation,
 * and its response one that operation documents (status and body, Ajv 2020-12). The client team's CI
 * gate when no provider is at hand. An interaction is judged by what it expects: a bad request that
 * expects the documented 4xx describing it (ERR-REQUIRED's 400 naming the missing member) is a valid
 * consumer test (expected-error.ts).
 */
import { readFile } from 'node:fs/promises';
import { BUNDLED_DOCUMENTS } from '../../openapi/document/bundled-documents.js';
import type { JsonObject } from '../../openapi/document/json.js';
import { checkRequest } from './check-request.js';
import { checkResponse } from './check-response.js';
import { undescribedProblems } from './expected-error.js';
import { createOperationRouter } from './operation-router.js';
import { loadPacts, type PactInteraction } from './pact-file.js';
import { createSchemaValidation } from './schema-validation.js';

/** The bundled document every tool reads (`npm run generate`). */
export const DEFAULT_DOCUMENT = BUNDLED_DOCUMENTS.api;

export interface CheckSpecOptions {
  /** A bundled OpenAPI 3.1 document (JSON, internal `$ref`s only); default: this project's. */
  document?: string;
  /** Response examples must hold every required member too (default: members they hold must be valid). */
  strict?: boolean;
}

export interface InteractionVerdict {
  interaction: PactInteraction;
  /** The documented operation (`operationId`, path template), when the request found one. */
  operation: { id: string; path: string } | undefined;
  /** Why the interaction disagrees with the document, in words; empty when it agrees. */
  problems: string[];
}

export interface CheckSpecReport {
  document: string;
  verdicts: InteractionVerdict[];
  skipped: { file: string; description: string; reason: string }[];
  ok: boolean;
}

/** Checks the pacts (files or directories of `.json` pact files) against the document. */
export async function checkPacts(
  paths: readonly string[],
  options: CheckSpecOptions = {},
): Promise<CheckSpecReport> {
  const documentPath = options.document ?? DEFAULT_DOCUMENT;
  const document = JSON.parse(await readFile(documentPath, 'utf8')) as JsonObject;
  const route = createOperationRouter(document);
  const schemas = createSchemaValidation(document, { strict: options.strict ?? false });
  const { interactions, skipped } = await loadPacts(paths);
  const verdicts = interactions.map((interaction): InteractionVerdict => {
    const routed = route(interaction.request.method, interaction.request.path);
    if (!routed.ok) return { interaction, operation: undefined, problems: [routed.problem] };
    const requestProblems = checkRequest(routed.value, interaction, schemas);
    const problems = [
      ...undescribedProblems(requestProblems, routed.value, interaction.response, schemas),
      ...checkResponse(routed.value, interaction.response, schemas),
    ];
    const operation = { id: routed.value.operationId, path: routed.value.entry.path };
    return { interaction, operation, problems };
  });
  const ok = verdicts.length > 0 && verdicts.every((verdict) => verdict.problems.length === 0);
  return { document: documentPath, verdicts, skipped, ok };
}
