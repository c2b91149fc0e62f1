/**
 * The API path of a request URL: its path without the base path the implementation is served under
 * (`https://gateway.example/ofapi` serves `/api/links/` at `/ofapi/api/links/`).
 */

/** `/ofapi` from `https://gateway.example/ofapi/`; '' for a base URL at the root. */
export function basePathOf(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '');
}

/** The URL's path under `basePath` (unchanged when it is not under it). */
export function apiPathOf(url: URL, basePath: string): string {
  const path = url.pathname;
  if (basePath === '' || !path.startsWith(`${basePath}/`)) return path;
  return path.slice(basePath.length);
}

/** Control API requests (`/_ofkit/...`): ofkit's own, never the API's. */
export const isControlPath = (apiPath: string) => apiPath.startsWith('/_ofkit/');
