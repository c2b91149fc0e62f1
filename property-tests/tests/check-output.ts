/** Runs `ofkit check` in process with its console captured: the exit code, stdout and stderr. */
import { vi } from 'vitest';
import { check } from '../../scripts/cli/check.js';

export interface CheckOutput {
  code: number;
  out: string;
  err: string;
}

export async function runCheck(argv: string[]): Promise<CheckOutput> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((text: string) => out.push(String(text)));
  const error = vi.spyOn(console, 'error').mockImplementation((text: string) => err.push(String(text)));
  try {
    const code = await check(argv);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
