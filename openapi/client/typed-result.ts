/**
 * The typed client's answers: one variant per status the document names for the operation, told apart
 * by `status` (the response's status as a literal). After `if (status === 428)` the `error` is the 428
 * body. TypeScript narrows a union by a member of its own, never by one nested in another
 * (`response.status`), hence the top-level `status` beside openapi-fetch's `data`, `error`, `response`.
 */
import type { MaybeOptionalInit, Middleware } from 'openapi-fetch';
import type { components, paths } from '../generated/openapi.js';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** The paths that document `method` (openapi-typescript writes `get?: never` for the others). */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never;
}[keyof paths];

type ResponsesOf<Operation> = Operation extends { responses: infer Responses } ? Responses : never;
type BodyOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : undefined;
type IsSuccess<Status extends number> = `${Status}` extends `2${string}` ? true : false;

/** Types only: the path a 428 paused, so that resuming it is typed as that collection's PATCH. */
declare const pausedAt: unique symbol;

type Variants<Responses, Path> = {
  [Status in keyof Responses & number]: IsSuccess<Status> extends true
    ? { status: Status; data: BodyOf<Responses[Status]>; error?: never; response: Response }
    : Status extends 428
      ? {
          status: Status;
          data?: never;
          error: BodyOf<Responses[Status]>;
          response: Response;
          readonly [pausedAt]?: Path;
        }
      : { status: Status; data?: never; error: BodyOf<Responses[Status]>; response: Response };
}[keyof Responses & number];

/**
 * An operation's answer (the operation of `Path`): one variant per documented status; distributes
 * over a union of operations.
 */
export type OfkitResult<Operation, Path = string> = Operation extends unknown
  ? Variants<ResponsesOf<Operation>, Path>
  : never;

type RequiredKeysOf<T> = { [K in keyof T]: object extends Pick<T, K> ? never : K }[keyof T];
/** The options argument: required when the operation has a required parameter or body (as openapi-fetch). */
type InitParam<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];

export type OfkitMethod<M extends HttpMethod> = <
  Path extends PathsWith<M>,
  Init extends MaybeOptionalInit<paths[Path], M>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<OfkitResult<paths[Path][M], Path>>;

/** The collections a PATCH with `{session, token, link}` resumes (LINK-MFA-428). */
export type ResumablePath = {
  [P in keyof paths]: paths[P]['patch'] extends {
    requestBody: { content: { 'application/json': components['schemas']['MfaResumeRequest'] } };
  }
    ? P
    : never;
}[keyof paths];

/** LINK-MFA-428: a registration or retrieval of `Path` the institution paused; its item carries the session. */
export interface MfaPause<Path extends ResumablePath = ResumablePath> {
  status: 428;
  error: components['schemas']['TokenRequiredErrorList'];
  response: Response;
  readonly [pausedAt]?: Path;
}

export interface OfkitClient {
  GET: OfkitMethod<'get'>;
  PUT: OfkitMethod<'put'>;
  POST: OfkitMethod<'post'>;
  DELETE: OfkitMethod<'delete'>;
  OPTIONS: OfkitMethod<'options'>;
  HEAD: OfkitMethod<'head'>;
  PATCH: OfkitMethod<'patch'>;
  TRACE: OfkitMethod<'trace'>;
  /**
   * Resumes what a 428 paused (LINK-MFA-428): a PATCH on the same collection with the pause's
   * `session` and `link` and the end user's `token` (and the retrieval's `save_data`). `pause` is the
   * 428 answer this client returned.
   */
  resumeMfa<Path extends ResumablePath>(
    pause: MfaPause<Path>,
    token: string,
  ): Promise<OfkitResult<paths[Path]['patch'], Path>>;
  /** openapi-fetch middleware. */
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
}
