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
  it('is memory by default, or a redis://HOST:PORT/DB URL', () => {
    expect(parseSimulatorConfig([]).store).toEqual({ kind: 'memory' });
    expect(parseSimulatorConfig(['--store', 'memory']).store).toEqual({ kind: 'memory' });
    expect(parseSimulatorConfig(['--store', 'redis://127.0.0.1:6379/2']).store).toEqual({
      kind: 'redis',
      url: 'redis://127.0.0.1:6379/2',
    });
  });

  it('refuses anything else with the reason', () => {
    expect(() => parseSimulatorConfig(['--store', 'postgres://db/1'])).toThrow(
      '--store must be memory or redis://HOST:PORT/DB, got "postgres://db/1"',
    );
    expect(() => parseSimulatorConfig(['--store', 'redis://127.0.0.1:6379/x'])).toThrow(/database number/);
  });
});
