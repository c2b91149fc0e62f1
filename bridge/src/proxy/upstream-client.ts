/**
 * How the proxy reaches the implementation: one request out, one answer back (status, headers as they
 * came, the body as the chunks that arrive). Without an egress proxy in the environment the requests go
 * out through node:http(s) with keep-alive; where `HTTPS_PROXY` / `HTTP_PROXY` name one, through undici's
 * `EnvHttpProxyAgent`, which tunnels and honours `NO_PROXY`. undici is loaded only then: in the
 * forwarding thread it cost more CPU per request than node:http, and with it loaded V8 answered the
 * external memory of the bodies passing through with full collections (several milliseconds each)
 * where it otherwise ran short scavenges.
 */
import { createNodeUpstream } from './node-upstream.js';
import type { UpstreamClient } from './upstream-request.js';
import { egressSettings, type TrustOptions, trustedCertificates } from './upstream-trust.js';

/** The client of the proxy's upstream requests, for the environment given (default process.env). */
export async function createUpstreamClient(options: TrustOptions = {}): Promise<UpstreamClient> {
  const env = options.env ?? process.env;
  const { ca, sources } = trustedCertificates(options);
  const egress = egressSettings(env);
  const proxy = egress.httpsProxy || egress.httpProxy;
  const trust = `trusting ${sources.join(' + ')}`;
  if (!proxy) return createNodeUpstream(ca, `${trust}; no egress proxy`);
  const { createEgressUpstream } = await import('./egress-upstream.js');
  return createEgressUpstream(ca, egress, `${trust}; egress proxy ${proxy}`);
}
