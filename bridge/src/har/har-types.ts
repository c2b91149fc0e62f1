/**
 * HAR 1.2 (the HTTP Archive format browsers, mitmproxy, Charles, Postman and Playwright write), the
 * members the bridge writes and reads. Custom members start with `_`, as the format asks.
 */

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarPostData {
  mimeType: string;
  text?: string;
  params?: HarNameValue[];
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: HarPostData;
  headersSize: number;
  bodySize: number;
}

export interface HarContent {
  size: number;
  mimeType: string;
  text?: string;
  /** `base64` when `text` holds the bytes base64-encoded (browsers do so for binary bodies). */
  encoding?: string;
  /** Playwright's `attach` mode: the body is in a file beside the HAR. */
  _file?: string;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  content: HarContent;
  redirectURL: string;
  headersSize: number;
  bodySize: number;
}

export interface HarTimings {
  blocked?: number;
  dns?: number;
  connect?: number;
  send: number;
  wait: number;
  receive: number;
  ssl?: number;
}

/** What ofkit adds to an entry: the proxy's own failure, bodies left out (unreadable ones by their digest). */
export interface HarOfkitEntry {
  upstream_failure?: { code: string; message: string };
  request_body_omitted?: boolean;
  response_body_omitted?: boolean;
  request_body_digest?: { length: number; sha256: string };
  response_body_digest?: { length: number; sha256: string };
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: HarTimings;
  serverIPAddress?: string;
  _ofkit?: HarOfkitEntry;
}

export interface HarLog {
  version: string;
  creator: { name: string; version: string; comment?: string };
  browser?: { name: string; version: string };
  pages?: unknown[];
  entries: HarEntry[];
  comment?: string;
  /** ofkit's recording facts: the implementation's base URL, whether personal data was kept. */
  _ofkit?: { upstream: string; personal_data: 'redacted' | 'kept' };
}

export interface Har {
  log: HarLog;
}
