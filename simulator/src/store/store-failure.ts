/**
 * A store that failed to answer while serving (not a mistake in the simulator): the request that met it
 * answers the API's error array with a code saying which, instead of a bare 500 (core/store-errors.ts).
 */

/**
 * `unavailable`: the store cannot be reached (its connection is lost and being re-made); the step was
 * not sent. `timeout`: the step was sent and no answer came in time: it may have happened.
 */
export type StoreFailureKind = 'unavailable' | 'timeout';

export class StoreFailure extends Error {
  override name = 'StoreFailure';

  constructor(
    readonly kind: StoreFailureKind,
    message: string,
  ) {
    super(message);
  }
}

export const isStoreFailure = (error: unknown): error is StoreFailure => error instanceof StoreFailure;
