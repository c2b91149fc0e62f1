import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from './default-config.js';
import { CONFIG_SCHEMA_PATH, ConfigError, parseTargetConfig } from './target-config.js';

/** `${NAME}`, written so that no linter takes it for a template mistake. */
const envRef = (name: string) => ['$', '{', name, '}'].join('');

describe('target configuration', () => {
  it('config.schema.json is a valid JSON Schema 2020-12 (a run reads it without that check)', () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    const schema = JSON.parse(readFileSync(CONFIG_SCHEMA_PATH, 'utf8'));
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('defaults fit the simulator', () => {
    const config = parseTargetConfig({ baseUrl: 'http://127.0.0.1:4010/' });
    expect(config.baseUrl).toBe('http://127.0.0.1:4010');
    expect(config.keys).toEqual(DEFAULT_CONFIG.keys);
    expect(config.fixtures.mfa.token).toBe('123456');
    expect(Object.isFrozen(config.fixtures.link)).toBe(true);
  });

  it('--keys replace the default keys as a whole (no simulator key goes to another server)', () => {
    const config = parseTargetConfig({ baseUrl: 'https://api.example', keys: ['id-1:secret:with:colons'] });
    expect(config.keys).toEqual({
      primary: { id: 'id-1', secret: 'secret:with:colons' },
      second: null,
      otherEnvironment: null,
    });
  });

  it('reads the file, merges fixtures over the defaults and expands environment references', () => {
    const file = {
      keys: {
        primary: { id: 'ci', secret: envRef('CI_SECRET') },
        otherEnvironment: { id: 'sb', secret: 'sb-secret' },
      },
      fixtures: { link: { institution: 'my_bank', username: 'u', password: 'p' } },
      operations: { exclude: ['*Payment*'] },
    };
    const config = parseTargetConfig({
      baseUrl: 'https://api.example',
      file,
      env: { CI_SECRET: 'from-env' },
    });
    expect(config.keys.primary.secret).toBe('from-env');
    expect(config.keys.second).toBeNull();
    expect(config.fixtures.link.institution).toBe('my_bank');
    expect(config.fixtures.fiscalMx).toEqual(DEFAULT_CONFIG.fixtures.fiscalMx);
    expect(config.operations.exclude).toEqual(['*Payment*']);
  });

  it('refuses files that break config.schema.json, unknown variables and missing base URLs', () => {
    expect(() =>
      parseTargetConfig({ baseUrl: 'http://x', file: { keys: { primary: { id: 'a' } } } }),
    ).toThrow(/config.schema.json/);
    expect(() => parseTargetConfig({ baseUrl: 'http://x', file: { requestTimeoutMs: '5' } })).toThrow(
      ConfigError,
    );
    expect(() => parseTargetConfig({ baseUrl: 'http://x', file: { baseUrl: envRef('NOPE') } })).toThrow(
      /NOPE/,
    );
    expect(() => parseTargetConfig({})).toThrow(/base URL/);
  });

  it('the webhook receiver: loopback by default; the file, then --receiver-host/--receiver-url, say where', () => {
    expect(parseTargetConfig({ baseUrl: 'http://x' }).receiver).toEqual({
      host: '127.0.0.1',
      port: 0,
      url: null,
    });
    const config = parseTargetConfig({
      baseUrl: 'http://x',
      file: { receiver: { host: '0.0.0.0', port: 8089, url: 'https://hooks.example/base' } },
      receiver: { url: 'https://tunnel.example/' },
    });
    expect(config.receiver).toEqual({ host: '0.0.0.0', port: 8089, url: 'https://tunnel.example/' });
    expect(() => parseTargetConfig({ baseUrl: 'http://x', file: { receiver: { url: 'ftp://x' } } })).toThrow(
      ConfigError,
    );
  });
});
