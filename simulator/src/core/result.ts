/** A ten-line Result: the typed error channel of the pipeline's stages (no fp-ts: a union is all the stages need). */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
