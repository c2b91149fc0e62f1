/**
 * The edges a break may wrap when the simulator is assembled: the pipeline's stages, the store, each
 * tenant's event emitter and the webhook POST. A break is a value (`RuleBreak`): its one-line
 * description, a change of the rule policy, or wrappers of these edges, composed like middleware.
 */
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import type { ApiErrors } from '../core/api-error.js';
import type { RaisedEvent, RaiseEvent } from '../core/events.js';
import type { Handler, ValidInput } from '../core/handler.js';
import type { ApiKey, Environment } from '../core/keys.js';
import type { RulePolicy } from '../core/rule-policy.js';
import type { TenantRuntime } from '../core/tenant.js';
import type { Stages } from '../pipeline/pipeline.js';
import type { Validator } from '../pipeline/validate.js';
import type { Store } from '../store/store.js';
import type { PostWebhook } from '../webhooks/delivery.js';

export interface Edges {
  readonly stages: Stages;
  readonly store: Store;
  /** A tenant's event emitter as its handlers call it. */
  readonly emitFor: (tenant: TenantRuntime, emit: RaiseEvent) => RaiseEvent;
  readonly post: PostWebhook;
}

/** What the assembly knows that a break may need (the keys, for the authentication breaks). */
export interface BreakContext {
  readonly keys: readonly ApiKey[];
  readonly environment: Environment;
  /** The API document's operations. */
  readonly operations: readonly ApiOperation[];
}

export interface RuleBreak {
  /** How a real server gets the rule wrong, in one line (the README's teeth matrix shows it). */
  readonly description: string;
  readonly policy?: (policy: RulePolicy) => RulePolicy;
  readonly edges?: (edges: Edges, context: BreakContext) => Edges;
}

/**
 * A rule's entry in the catalogue: its first break (`--break RULE-ID`) and, when a rule is got wrong
 * in more than one realistic way, each other way under a short name (`--break RULE-ID:name`).
 */
export interface RuleBreaks extends RuleBreak {
  readonly variants?: Readonly<Record<string, RuleBreak>>;
}

/** `edges` with the stages changed by `change`. */
export const withStages = (edges: Edges, change: (stages: Stages) => Partial<Stages>): Edges => ({
  ...edges,
  stages: { ...edges.stages, ...change(edges.stages) },
});

/** `edges` with the handlers of `operationIds` wrapped by `wrap`. */
export function wrapHandlers(
  edges: Edges,
  operationIds: readonly string[],
  wrap: (handler: Handler) => Handler,
): Edges {
  const handlers = new Map(edges.stages.handlers);
  for (const id of operationIds) {
    const handler = handlers.get(id);
    if (!handler) throw new Error(`No handler for ${id} to break`);
    handlers.set(id, wrap(handler));
  }
  return withStages(edges, () => ({ handlers }));
}

/** `edges` with the validated input of `operationIds` changed before their handlers read it. */
export const rewriteInput = (
  edges: Edges,
  operationIds: readonly string[],
  rewrite: (input: ValidInput) => ValidInput,
): Edges =>
  wrapHandlers(
    edges,
    operationIds,
    (handler) => (context) => handler({ ...context, input: rewrite(context.input) }),
  );

/** `edges` whose handlers of `operationIds` never see the query parameter `name` (a filter left unread). */
export const ignoreQuery = (edges: Edges, operationIds: readonly string[], name: string): Edges =>
  rewriteInput(edges, operationIds, (input) => {
    const { [name]: _unread, ...query } = input.query;
    return { ...input, query };
  });

/** `edges` whose handlers of `operationIds` never see the header `name` (lower-case). */
export const ignoreHeader = (edges: Edges, operationIds: readonly string[], name: string): Edges =>
  rewriteInput(edges, operationIds, (input) => {
    const { [name]: _unread, ...headers } = input.headers;
    return { ...input, headers };
  });

/** `edges` with every operation's validator wrapped. */
export const wrapValidators = (
  edges: Edges,
  wrap: (validator: Validator, operation: ApiOperation) => Validator,
): Edges =>
  withStages(edges, ({ validatorFor }) => ({
    validatorFor: (operation, ajv) => wrap(validatorFor(operation, ajv), operation),
  }));

/** `edges` whose handlers' error values pass through `map`. */
export const mapHandlerErrors = (edges: Edges, map: (errors: ApiErrors) => ApiErrors): Edges =>
  wrapHandlers(edges, [...edges.stages.handlers.keys()], (handler) => async (context) => {
    const answered = await handler(context);
    return answered.ok ? answered : { ok: false, error: map(answered.error) };
  });

/** `edges` whose raised events pass through `change` (undefined drops the event). */
export const rewriteEvents = (
  edges: Edges,
  change: (event: RaisedEvent, tenant: TenantRuntime) => RaisedEvent | undefined,
): Edges => ({
  ...edges,
  emitFor: (tenant, emit) => {
    const inner = edges.emitFor(tenant, emit);
    return (event) => {
      const changed = change(event, tenant);
      if (changed) inner(changed);
    };
  },
});
