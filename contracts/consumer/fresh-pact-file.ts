/**
 * Vitest global setup of the consumer run: Pact merges new interactions into an existing pact file, so
 * the file is removed first and only the interactions of this run are written (and committed).
 */
import { rm } from 'node:fs/promises';
import { PACT_FILE } from './reference-pact.js';

export async function setup(): Promise<void> {
  await rm(PACT_FILE, { force: true });
}
