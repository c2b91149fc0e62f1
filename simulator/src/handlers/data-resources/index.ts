/** Handlers of every data resource of the spec's conventions table (issue 3; being built). */
import type { Handler } from '../handler.js';
import type { LinkData } from './link-data.js';

export function dataResourceHandlers(_linkData: LinkData): [string, Handler][] {
  return [];
}
