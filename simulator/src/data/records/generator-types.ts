/**
 * The shapes the record compiler and its scalar generators share: the per-record state generators read,
 * a generator, and where a value sits in the example.
 */
import type { JsonObject, JsonValue } from '../../../../openapi/document/json.js';
import type { Ids, Random } from '../../ids/seeded-ids.js';

/** Per-record state the compiled generators read; one object is reused for all records of a call. */
export interface GenState {
  readonly random: Random;
  readonly ids: Ids;
  /** Days every `date` moves. */
  days: number;
  /** Milliseconds every `date-time` moves (the result is capped at `collectedMs`). */
  ms: number;
  /** Months every `YYYY-MM` string and calendar month field moves. */
  months: number;
  /** Years a calendar `year` without a sibling month field moves. */
  years: number;
  /** Factor applied to the record's money values (positive, so signs are kept). */
  factor: number;
  readonly linkId: string;
  readonly institution: string;
  readonly collectedAt: string;
  readonly collectedMs: number;
  readonly collectedDay: number;
  readonly collectedMonth: number;
  /** Currency for a top-level free-form `currency`, from the link's country; null keeps the example's. */
  readonly currency: string | null;
  /** Value of a top-level reference field (`account`, `investment`...). */
  reference(field: string): string;
  /** A copy of the referenced record of that id, when the context has it (nested references). */
  referencedRecord(field: string, id: string): JsonObject | undefined;
}

/** Builds one value from the per-record state. */
export type Gen = (state: GenState) => JsonValue;

/** What the compiler knows about the resource. */
export interface CompileEnv {
  readonly definitions: JsonObject;
  /** Top-level uuid fields that name another record. */
  readonly references: ReadonlySet<string>;
  /** Field names that keep the example's value. */
  readonly keep: ReadonlySet<string>;
  /** Field names varied despite `COUPLED_FIELDS`. */
  readonly vary: ReadonlySet<string>;
}

/** The resource's environment plus the example's own `collected_at` (NaN when absent). */
export interface VariantEnv extends CompileEnv {
  readonly exampleCollectedMs: number;
}

/** Where a value sits: its field name, depth (1 = a top-level field) and the example object holding it. */
export interface Site {
  readonly name: string;
  readonly depth: number;
  /** The example object holding the value (for calendar groups such as `{year, month}`). */
  readonly parent: JsonObject | null;
}
