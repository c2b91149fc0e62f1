/** Maps operationIds to stateful handlers; every other operation falls back to Prism (STYLE.md). */
import type { Handler, HandlerRegistry } from './handler.js';
import { institutionHandlers } from './institutions.js';
import { linkHandlers } from './links.js';

export interface RegistryOptions {
  /** Collections whose records belong to a link and go with it (cascades). */
  dataCollections: readonly string[];
}

export function createHandlerRegistry(options: RegistryOptions): HandlerRegistry {
  const entries: [string, Handler][] = [...institutionHandlers, ...linkHandlers(options.dataCollections)];
  return new Map(entries);
}
