/**
 * Where the bundled documents live and how they are read: `openapi/generated/openapi.json` (the API) and
 * `admin.json` (the simulator's control API), one file each with only internal `$ref`s. The same relative
 * place holds in the repository and in the package (`dist/openapi/generated/`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deepFreeze, type JsonObject } from './json.js';

const GENERATED = resolve(import.meta.dirname, '../generated');

/** The bundled documents by name. */
export const BUNDLED_DOCUMENTS = {
  api: resolve(GENERATED, 'openapi.json'),
  admin: resolve(GENERATED, 'admin.json'),
} as const;

export type BundledName = keyof typeof BUNDLED_DOCUMENTS;

/** Parses a bundled document from its file; each call gives a fresh value (callers may keep or change it). */
export function readBundledDocument(name: BundledName): JsonObject {
  return JSON.parse(readFileSync(BUNDLED_DOCUMENTS[name], 'utf8')) as JsonObject;
}

const shared = new Map<BundledName, JsonObject>();

/**
 * A bundled document parsed once per process and frozen: for readers that only read it (the simulator
 * reads it at every start; a test run starts hundreds). A reader that changes a document takes a copy
 * (`structuredClone`) or `readBundledDocument`'s fresh value.
 */
export function sharedBundledDocument(name: BundledName): JsonObject {
  let document = shared.get(name);
  if (document === undefined) {
    document = deepFreeze(readBundledDocument(name));
    shared.set(name, document);
  }
  return document;
}
