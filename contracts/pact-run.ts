/**
 * Vitest global set-up of the three Pact projects (consumer, provider, check-spec, run in that order).
 * Pact merges new interactions into an existing pact file, so the consumer tests write into an empty
 * folder of this run's (`inject('pactRunDir')`); the provider and check-spec tests read the pact file
 * written there when the consumer tests ran, the committed one otherwise (`pactFileOfRun`). When the run
 * has passed, the file written replaces the committed one in one step (a rename on the same file
 * system): the committed file is never missing or half written while other lanes run (`npm pack` ships
 * it).
 */
import { copyFile, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PACT_FILE } from './consumer/reference-pact.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the consumer tests of this run write the pact file into. */
    pactRunDir: string;
  }
}

/** One folder per vitest run: the three projects' set-ups run in the one vitest process. */
const RUN_DIR = join(tmpdir(), `ofkit-pacts-${process.pid}`);
/** A file beside `contracts/pacts/` (not shipped), renamed over the committed pact file. */
const STAGED = resolve(import.meta.dirname, `.${basename(PACT_FILE)}.staged`);

async function replaceCommitted(written: string): Promise<void> {
  const fresh = await readFile(written, 'utf8').catch(() => undefined);
  if (fresh === undefined || fresh === (await readFile(PACT_FILE, 'utf8').catch(() => undefined))) return;
  await copyFile(written, STAGED);
  await rename(STAGED, PACT_FILE);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const consumer = project.name === 'pact-consumer';
  if (consumer) await rm(RUN_DIR, { recursive: true, force: true });
  await mkdir(RUN_DIR, { recursive: true });
  project.provide('pactRunDir', RUN_DIR);
  return async () => {
    if (!consumer) return;
    if (project.vitest.state.getCountOfFailedTests() === 0)
      await replaceCommitted(join(RUN_DIR, basename(PACT_FILE)));
    await rm(RUN_DIR, { recursive: true, force: true });
  };
}
