/** The registry that knows every area: operationId -> the stateful handler of its area. */
import type { ApiDocument } from '../../openapi/document/api-document.js';
import { controlHandlers } from './control/index.js';
import { judgeControlHandlers } from './control/judge-handlers.js';
import { lifeOnRegistration, recurrentLifeHandlers } from './control/recurrent-life-handlers.js';
import { sandboxHandlers } from './control/sandbox-handlers.js';
import { stormControlHandlers } from './control/storm-handlers.js';
import { webhookControlHandlers } from './control/webhook-handlers.js';
import type { Handler, HandlerRegistry } from './core/handler.js';
import type { JobKinds } from './core/job-kinds.js';
import { createLinkData } from './data/create-link-data.js';
import { dataResourceHandlers } from './data/index.js';
import type { JudgeLog } from './judge/judge-log.js';
import { defineDailyRefresh } from './links/events/daily-schedule.js';
import { institutionHandlers } from './links/institution-handlers.js';
import { linkHandlers } from './links/links.js';
import { paymentHandlers } from './payments/index.js';
import { getApiRoot } from './pipeline/api-root.js';
import type { StormSwitch } from './situations/storm-switch.js';

export interface RegistryOptions {
  /** The bundled API document (record templates, extensions). */
  document: ApiDocument;
  /** Collections whose records belong to a link and go with it (cascades). */
  dataCollections: readonly string[];
  /** Where the handlers define the kinds of the jobs they schedule. */
  jobs: JobKinds;
  /** The client judge's log; null without the judge (its control operations then answer `judge_off`). */
  judge: JudgeLog | null;
  /** The forward-compatibility storm's switch (`/_ofkit/storm/`). */
  storm: StormSwitch;
  /** `--recurrent-life DAYS`: every recurrent link registered gets its life script of that many days. */
  recurrentLife?: number;
}

export function createHandlerRegistry(options: RegistryOptions): HandlerRegistry {
  const linkData = createLinkData(options.document);
  defineDailyRefresh(options.jobs, linkData);
  const entries: [string, Handler][] = [
    ['getApiRoot', getApiRoot],
    ...institutionHandlers,
    ...linkHandlers(
      options.dataCollections,
      linkData,
      options.jobs,
      options.recurrentLife === undefined ? undefined : lifeOnRegistration(options.recurrentLife),
    ),
    ...dataResourceHandlers(linkData, options.jobs),
    ...paymentHandlers(options.jobs),
    ...controlHandlers(options.document.raw),
    ...webhookControlHandlers(linkData),
    ...judgeControlHandlers(options.judge),
    ...stormControlHandlers(options.storm),
    ...recurrentLifeHandlers(linkData, options.jobs),
    ...sandboxHandlers(options.document.raw, linkData, linkData.machine),
  ];
  const registry = new Map<string, Handler>();
  for (const [operationId, handler] of entries) {
    if (registry.has(operationId)) throw new Error(`Two handlers for ${operationId}`);
    registry.set(operationId, handler);
  }
  return registry;
}
