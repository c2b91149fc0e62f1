/**
 * The dashboard at `/_ofkit/ui/`, served by the core (not only the node adapter): static files that hold
 * no data (HTML, ES modules, CSS, the two OpenAPI documents, Preact and htm from their packages) without
 * credentials, and `/_ofkit/ui/keys`, the published default keys among those configured, on loopback
 * only and never through a proxy (admin.yaml `getDashboardKeys`): a key given with `--keys` is typed
 * into the page. Every data call the page makes goes through the control API and the API.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { isPublishedKey } from '../../../openapi/security/published-keys.js';
import { shellQuote } from '../../../openapi/security/shell-quote.js';
import { apiError } from '../core/api-error.js';
import type { SimRequest, SimResponse } from '../core/http-types.js';
import type { ApiKey, Environment } from '../core/keys.js';
import { renderErrors } from '../pipeline/serialize.js';

export const DASHBOARD_PREFIX = '/_ofkit/ui/';
const ASSETS = resolve(import.meta.dirname, 'assets');

/** The files of `assets/` (the build copies them beside the compiled code). */
export const DASHBOARD_ASSETS = [
  'index.html',
  'style.css',
  'parts.css',
  'app.js',
  'api.js',
  'ui.js',
  'view-tenant.js',
  'view-links.js',
  'view-link.js',
  'view-clock.js',
  'view-events.js',
  'view-switches.js',
  'view-requests.js',
  'view-judge.js',
  'view-payments.js',
  'markdown.js',
  'curl-lines.js',
  'fault-form.js',
  'link-forms.js',
  'sandbox-controls.js',
  'snapshot-buttons.js',
] as const;

/** The module the page's curl lines quote with: openapi/security's shellQuote, served from its source. */
export const SHELL_QUOTE_ASSET = 'shell-quote.js';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
};

export interface DashboardOptions {
  keys: readonly ApiKey[];
  environment: Environment;
  /** The bundled documents the simulator already parsed: the forms and tables are built from them. */
  api: unknown;
  admin: unknown;
  /** Request ids of the error answers. */
  requestId: () => string;
}

interface Asset {
  type: string;
  bytes: Buffer;
}

const require = createRequire(import.meta.url);

/** Preact, its hooks and htm, as the packages ship them for browsers (no CDN, no build). */
function vendorAssets(): Record<string, string> {
  const preact = dirname(require.resolve('preact'));
  const hooks = dirname(require.resolve('preact/hooks'));
  const htm = dirname(require.resolve('htm'));
  return {
    'vendor/preact.js': join(preact, 'preact.module.js'),
    'vendor/hooks.js': join(hooks, 'hooks.module.js'),
    'vendor/htm.js': join(htm, 'htm.module.js'),
  };
}

function loadAssets(options: DashboardOptions): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const add = (name: string, bytes: Buffer) => {
    assets.set(name, { type: TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'text/plain', bytes });
  };
  for (const name of DASHBOARD_ASSETS) add(name, readFileSync(join(ASSETS, name)));
  for (const [name, path] of Object.entries(vendorAssets())) add(name, readFileSync(path));
  // The one shell-quoting function of every printed command, served as its own source (no build step).
  add(SHELL_QUOTE_ASSET, Buffer.from(`export const shellQuote = ${shellQuote.toString()};\n`));
  add('openapi.json', Buffer.from(JSON.stringify(options.api)));
  add('admin.json', Buffer.from(JSON.stringify(options.admin)));
  return assets;
}

/** The page's only inline script is its import map: the policy allows exactly that one by hash. */
function contentSecurityPolicy(html: string): string {
  const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  const hash = createHash('sha256').update(importMap).digest('base64');
  return [
    "default-src 'self'",
    `script-src 'self' 'sha256-${hash}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** A name the page's own origin can have on loopback: a rebinding site's name cannot read the keys. */
function loopbackHost(host: string | undefined): boolean {
  const name = (host ?? '').replace(/:\d+$/, '').toLowerCase();
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * A request a proxy passed on (RFC 7239 `Forwarded`, `X-Forwarded-*`, `Via`): its loopback address is
 * the proxy's, not the browser's, which may be anywhere.
 */
function forwarded(headers: SimRequest['headers']): boolean {
  for (const name in headers)
    if (name === 'forwarded' || name === 'via' || name.startsWith('x-forwarded-')) return true;
  return false;
}

/** Handed out only where the caller is this machine's browser, and never through a proxy. */
const mayHandOutKeys = (request: SimRequest) =>
  request.loopback === true && loopbackHost(request.headers.host) && !forwarded(request.headers);

function fileResponse(asset: Asset, policy: string): SimResponse {
  return {
    status: 200,
    headers: {
      'content-type': asset.type,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy': policy,
      'referrer-policy': 'no-referrer',
    },
    body: '',
    serialize: () => asset.bytes,
  };
}

/** Answers the dashboard's paths, or undefined for every other path (the pipeline's). */
export function createDashboard(options: DashboardOptions): (request: SimRequest) => SimResponse | undefined {
  // Read on the first dashboard request: a simulator nobody browses pays nothing at start-up.
  let loaded: { assets: Map<string, Asset>; policy: string } | undefined;
  const files = () => {
    if (!loaded) {
      const assets = loadAssets(options);
      loaded = { assets, policy: contentSecurityPolicy(assets.get('index.html')!.bytes.toString('utf8')) };
    }
    return loaded;
  };
  // Only the published defaults: a secret given with --keys is never handed out.
  const keys = options.keys
    .filter((key) => key.environment === options.environment && isPublishedKey(key))
    .map((key) => ({ secret_id: key.secretId, secret_password: key.secretPassword }));
  const fail = (code: 'not_found' | 'method_not_allowed', message: string) =>
    renderErrors(apiError(code, { message }), options.requestId());

  return (request) => {
    // The page's relative URLs need the trailing slash.
    if (request.path === DASHBOARD_PREFIX.slice(0, -1)) {
      return { status: 308, headers: { location: DASHBOARD_PREFIX } };
    }
    if (!request.path.startsWith(DASHBOARD_PREFIX)) return undefined;
    const name = request.path.slice(DASHBOARD_PREFIX.length) || 'index.html';
    if (request.method !== 'GET') return fail('method_not_allowed', 'The dashboard is read with GET.');
    if (name === 'keys') {
      if (!mayHandOutKeys(request))
        return fail('not_found', 'The keys are offered only on loopback; enter a key in the dashboard.');
      const body = { environment: options.environment, keys };
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
        body,
      };
    }
    const { assets, policy } = files();
    const asset = assets.get(name);
    return asset ? fileResponse(asset, policy) : fail('not_found', `No dashboard file ${name}.`);
  };
}
