/**
 * What the proxy trusts when it reaches an HTTPS implementation: the platform's CA store (the system
 * bundle where the platform has one), Node's bundled roots and the certificates named by
 * `NODE_EXTRA_CA_CERTS`. Giving TLS its own `ca` replaces Node's default store, so the three are joined
 * here. Which egress proxy applies is read here too, from `HTTPS_PROXY` / `HTTP_PROXY`.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import { rootCertificates } from 'node:tls';

/** Where Linux distributions and macOS keep the system's trusted roots as one PEM bundle. */
const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

export interface TrustOptions {
  env?: NodeJS.ProcessEnv;
  /** The system bundles to look for (tests pass none). */
  systemBundles?: readonly string[];
}

/** The certificates the proxy trusts, and where they came from (for the start-up line). */
export function trustedCertificates(options: TrustOptions = {}): { ca: string[]; sources: string[] } {
  const env = options.env ?? process.env;
  const ca = [...rootCertificates];
  const sources = ['node'];
  // Node 22.15+ reads the platform's store itself; earlier, its PEM bundle on disk.
  const system = (tls as { getCACertificates?: (kind: string) => string[] }).getCACertificates?.('system');
  if (system && system.length > 0) {
    ca.push(...system);
    sources.push('system');
  } else {
    const bundle = (options.systemBundles ?? SYSTEM_BUNDLES).find((path) => existsSync(path));
    if (bundle) {
      ca.push(readFileSync(bundle, 'utf8'));
      sources.push(bundle);
    }
  }
  const extra = env.NODE_EXTRA_CA_CERTS;
  if (extra) {
    ca.push(readFileSync(extra, 'utf8'));
    sources.push(`NODE_EXTRA_CA_CERTS (${extra})`);
  }
  return { ca, sources };
}

/** The egress proxy settings `env` holds ('' where unset; the lower-case names win, as curl reads them). */
export function egressSettings(env: NodeJS.ProcessEnv): {
  httpsProxy: string;
  httpProxy: string;
  noProxy: string;
} {
  return {
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  };
}
