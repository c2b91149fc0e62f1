/**
 * The Pact verifier's state hooks for the provider states of `provider-states.ts`, and a log of what
 * happened to the states of each interaction. Pact's own handler swallows a failed state (it answers
 * 200 and verifies anyway), so the log is what tells a failed or unverifiable state from a pass.
 */
import type { ControlApiSupport } from './provider-api.js';
import { PROVIDER_STATES, type StateContext } from './provider-states.js';

export interface StateProblem {
  state: string;
  kind: 'unverifiable' | 'setup-failed';
  message: string;
}

export interface InteractionStates {
  states: string[];
  problems: StateProblem[];
}

/** One entry per interaction, in the verifier's order (the order of its results). */
export class StateLog {
  readonly interactions: InteractionStates[] = [];

  begin(): void {
    this.interactions.push({ states: [], problems: [] });
  }

  private get current(): InteractionStates {
    if (this.interactions.length === 0) this.begin();
    return this.interactions.at(-1)!;
  }

  saw(state: string): void {
    this.current.states.push(state);
  }

  problem(problem: StateProblem): void {
    this.current.problems.push(problem);
  }
}

export interface StateHooks {
  /** Before each interaction: a new log entry and, with the control API, a clean tenant. */
  beforeEach: () => Promise<void>;
  stateHandlers: Record<string, () => Promise<Record<string, string> | undefined>>;
  /** Sees the verifier's state calls, to log states no handler knows. */
  observeStateCall: (body: unknown) => void;
}

export function createStateHooks(
  context: StateContext,
  control: ControlApiSupport,
  log: StateLog,
): StateHooks {
  const { api } = context;
  const stateHandlers: StateHooks['stateHandlers'] = { '': async () => undefined };
  for (const [name, state] of Object.entries(PROVIDER_STATES)) {
    stateHandlers[name] = async () => {
      log.saw(name);
      if (state.needsControlApi !== undefined && !control.available) {
        const message = `needs the control API (${state.needsControlApi}); ${api.baseUrl} has none: ${control.reason}`;
        log.problem({ state: name, kind: 'unverifiable', message });
        return undefined;
      }
      try {
        return await state.setup(context);
      } catch (error) {
        log.problem({ state: name, kind: 'setup-failed', message: (error as Error).message });
        return undefined;
      }
    };
  }
  return {
    stateHandlers,
    async beforeEach() {
      log.begin();
      if (!control.available) return;
      const answer = await api
        .send('POST', '/_ofkit/reset/')
        .catch((error: Error) => ({ status: error.message }));
      if (answer.status !== 204) {
        log.problem({
          state: '(reset)',
          kind: 'setup-failed',
          message: `POST /_ofkit/reset/ answered ${answer.status}`,
        });
      }
    },
    observeStateCall(body) {
      const { state, action } = (body ?? {}) as { state?: unknown; action?: unknown };
      if (action !== 'setup' || typeof state !== 'string' || Object.hasOwn(stateHandlers, state)) return;
      log.saw(state);
      log.problem({ state, kind: 'unverifiable', message: 'no provider state handler knows this state' });
    },
  };
}
