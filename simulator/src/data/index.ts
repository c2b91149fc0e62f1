/**
 * Handlers of every data resource of the spec's conventions table, made by one machine from the
 * document's description of each resource (`resource-catalogue.ts`): list, retrieve, resume, detail,
 * delete and the exchange history, keyed by the document's operationIds.
 */

import type { Handler } from '../core/handler.js';
import type { JobKinds } from '../core/job-kinds.js';
import { collectionList } from '../pipeline/lists/list-query.js';
import type { MachineLinkData } from './create-link-data.js';
import { listHistory } from './exchange-history.js';
import { deleteHandler, detailHandler } from './record-handlers.js';
import {
  ASYNC_RETRIEVAL,
  asyncRetrievalRunner,
  resumeHandler,
  retrieveHandler,
} from './retrieve-handlers.js';

export function dataResourceHandlers(linkData: MachineLinkData, jobs: JobKinds): [string, Handler][] {
  const { machine } = linkData;
  jobs.define(ASYNC_RETRIEVAL, asyncRetrievalRunner(machine));
  const entries: [string, Handler][] = [];
  for (const resource of machine.resources.values()) {
    const { list, retrieve, resume, get, delete: remove, history } = resource.operations;
    if (list) entries.push([list, collectionList(resource.path)]);
    if (retrieve) entries.push([retrieve, retrieveHandler(machine, resource)]);
    if (resume) entries.push([resume, resumeHandler(machine, resource)]);
    if (get) entries.push([get, detailHandler(resource)]);
    if (remove) entries.push([remove, deleteHandler(resource)]);
    if (history) entries.push([history, listHistory(resource.path)]);
  }
  return entries;
}
