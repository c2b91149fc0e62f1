import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../openapi/config/config-error.js';
import { parseSimulatorConfig } from './simulator-config.js';

describe('WEBHOOK-BEARER', () => {
  it('--webhook-url and --webhook-bearer give every tenant its receiver and token', () => {
    const config = parseSimulatorConfig([
      '--webhook-url',
      'http://127.0.0.1:8080/hooks',
      '--webhook-bearer',
      's3cr3t',
    ]);
    expect(config.webhook).toEqual({ url: 'http://127.0.0.1:8080/hooks', bearer_token: 's3cr3t' });
    expect(parseSimulatorConfig(['--webhook-url', 'https://example.test/h']).webhook).toEqual({
      url: 'https://example.test/h',
      bearer_token: null,
    });
    expect(parseSimulatorConfig([]).webhook).toBeNull();
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('refuses a URL that is not http(s) and a token without a URL', () => {
    expect(() => parseSimulatorConfig(['--webhook-url', 'not a url'])).toThrow(ConfigError);
    expect(() => parseSimulatorConfig(['--webhook-url', 'ftp://example.test/'])).toThrow(/http\(s\)/);
    expect(() => parseSimulatorConfig(['--webhook-bearer', 't'])).toThrow(/needs --webhook-url/);
  });
});

describe('--store', () => {
  it('is memory by default, a redis://HOST:PORT/DB URL or a redis+cluster:// list of nodes, with options', () => {
    expect(parseSimulatorConfig([]).store).toEqual({ kind: 'memory' });
    expect(parseSimulatorConfig(['--store', 'memory']).store).toEqual({ kind: 'memory' });
    for (const url of [
      'redis://127.0.0.1:6379/2',
      'redis://127.0.0.1:6379/0?connect_timeout_ms=500&command_timeout_ms=2000&job_lease_ms=1000',
      'redis+cluster://10.0.0.1:7000,10.0.0.2:7000,10.0.0.3:7000',
      'redis+cluster://user:secret@10.0.0.1:7000?command_timeout_ms=3000',
    ])
      expect(parseSimulatorConfig(['--store', url]).store).toEqual({ kind: 'redis', url });
  });

  it('refuses anything else with the reason, never printing a password', () => {
    expect(() => parseSimulatorConfig(['--store', 'postgres://db/1'])).toThrow(
      '--store must be memory, redis://HOST:PORT/DB or redis+cluster://HOST:PORT,HOST:PORT, got "postgres://db/1"',
    );
    expect(() => parseSimulatorConfig(['--store', 'redis://127.0.0.1:6379/x'])).toThrow(/database number/);
    expect(() => parseSimulatorConfig(['--store', 'redis://127.0.0.1:6379/0?timeout=5'])).toThrow(
      /unknown option timeout \(known: connect_timeout_ms, command_timeout_ms, job_lease_ms\)/,
    );
    expect(() => parseSimulatorConfig(['--store', 'redis://127.0.0.1:6379/0?job_lease_ms=0'])).toThrow(
      /job_lease_ms must be a whole number of milliseconds/,
    );
    expect(() => parseSimulatorConfig(['--store', 'redis+cluster://:pw@10.0.0.1:7000/3'])).toThrow(
      '--store "redis+cluster://:***@10.0.0.1:7000/3": list the cluster\'s nodes as HOST:PORT,HOST:PORT (want redis+cluster://HOST:PORT,HOST:PORT; a cluster has no database number)',
    );
  });
});
