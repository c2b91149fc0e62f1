import { describe, expect, it } from 'vitest';
import { type CpuProfile, groupOf, summarizeProfile } from './summarize-profile.js';

const ROOT = '/repo';
const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

describe('CPU profile summary', () => {
  it('groups frames by repository file, package, node internal and native function', () => {
    expect(groupOf(frame('validate', 'file:///repo/simulator/src/pipeline/validate.ts'), ROOT)).toBe(
      'simulator/src/pipeline/validate.ts',
    );
    expect(groupOf(frame('x', 'file:///repo/node_modules/@stoplight/prism-http/dist/index.js'), ROOT)).toBe(
      'pkg @stoplight/prism-http',
    );
    expect(groupOf(frame('x', 'file:///repo/node_modules/ajv/dist/core.js'), ROOT)).toBe('pkg ajv');
    expect(groupOf(frame('emit', 'node:events'), ROOT)).toBe('node:events');
    expect(groupOf(frame('stringify', ''), ROOT)).toBe('(native) stringify');
    expect(groupOf(frame('(garbage collector)', ''), ROOT)).toBe('(garbage collector)');
  });

  it('charges self time to the leaf and inclusive time to every group on the stack, not the profiler', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 5] },
        {
          id: 2,
          callFrame: frame('handle', 'file:///repo/simulator/src/pipeline/pipeline.ts'),
          children: [3],
        },
        {
          id: 3,
          callFrame: frame('answer', 'file:///repo/simulator/src/pipeline/pipeline.ts'),
          children: [4],
        },
        { id: 4, callFrame: frame('mock', 'file:///repo/node_modules/fp-ts/lib/index.js') },
        { id: 5, callFrame: frame('stop', 'file:///repo/bench/profile/cpu-profiler.ts') },
      ],
      samples: [4, 4, 3, 1, 5],
      timeDeltas: [1000, 1000, 2000, 4000, 9000],
    };
    const summary = summarizeProfile(profile, ROOT);
    expect(summary.sampledMs).toBe(8);
    expect(summary.self.map((s) => [s.name, s.ms])).toEqual([
      ['(root)', 4],
      ['pkg fp-ts', 2],
      ['simulator/src/pipeline/pipeline.ts', 2],
    ]);
    expect(summary.inclusive.find((s) => s.name === 'simulator/src/pipeline/pipeline.ts')).toMatchObject({
      ms: 4,
      share: 0.5,
    });
  });
});
