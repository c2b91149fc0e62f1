import { readBundledDocument } from '../../openapi/document/bundled-documents.js';
import type { Simulator } from '../../simulator/src/simulator.js';

export const ADMIN = readBundledDocument('admin');

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of the answers
export type Answer = { status: number; body: any; text: string };

/** `(method, path, body?) => answer` as the tenant of `credentials` (`id:secret`), through `handle()`. */
export function inProcess(simulator: Simulator, credentials: string) {
  const authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await simulator.handle({
      method,
      path,
      query: new URLSearchParams(),
      headers: { authorization, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? '' : JSON.stringify(body),
      origin: 'http://127.0.0.1',
    });
    const text = response.serialize?.().toString('utf8') ?? JSON.stringify(response.body ?? null);
    return { status: response.status, body: response.body, text };
  };
}

/** The tenant's snapshot as the text the adapter would send. */
export async function exportText(simulator: Simulator, credentials: string): Promise<string> {
  const answer = await inProcess(simulator, credentials)('GET', '/_ofkit/snapshot/');
  if (answer.status !== 200) throw new Error(`export answered ${answer.status}`);
  return answer.text;
}

/** ERR-BODY: a non-empty JSON array of `{request_id, message, code, field?}`. */
export function isErrorArray(text: string): boolean {
  try {
    const body = JSON.parse(text) as unknown;
    return (
      Array.isArray(body) &&
      body.length > 0 &&
      body.every(
        (item) =>
          typeof item === 'object' &&
          item !== null &&
          typeof item.request_id === 'string' &&
          typeof item.message === 'string' &&
          typeof item.code === 'string',
      )
    );
  } catch {
    return false;
  }
}
