/**
 * The command sequences of a model run: fc.commands over one weighted choice of every command class.
 * Commands name links and records by index (resolved modulo what exists when they run), so removing a
 * command while shrinking leaves the others meaningful. Weights favour registering and deleting, so that
 * runs reach the 6th deletion of a minute (DELETE-RATE-LIMIT) and a second refresh (LINK-REFRESH-COOLDOWN).
 */
import fc from 'fast-check';
import { ADVANCE_STEPS, AdvanceClockCommand } from './advance-clock-command.js';
import { DeleteAccountCommand, DeleteLinkCommand } from './delete-commands.js';
import { GetLinkCommand, GetRecordCommand } from './get-commands.js';
import { ACCOUNTS, type LinkModel, type RecordCollection, TRANSACTIONS } from './link-model.js';
import { ListLinksCommand, ListRecordsCommand } from './list-commands.js';
import type { ModelTarget } from './model-target.js';
import { type LinkChange, PatchLinkCommand } from './patch-link-command.js';
import { RefreshLinkCommand } from './refresh-link-command.js';
import { RegisterLinkCommand } from './register-link-command.js';
import { RetrieveAccountsCommand, RetrieveTransactionsCommand } from './retrieve-records-commands.js';

export type ModelCommand = fc.AsyncCommand<LinkModel, ModelTarget>;

/** One generated sequence; its JSON (the report's counterexample) lists the commands that ran. */
export class ModelRun {
  constructor(readonly commands: Iterable<ModelCommand>) {}

  /** The commands that ran, in order, and fast-check's replayPath for them. */
  ran(): { commands: string[]; replayPath: string | null } {
    const [list = '', metadata = ''] = String(this.commands).split(' /*');
    const replayPath = /replayPath="([^"]*)"/.exec(metadata)?.[1] ?? null;
    return { commands: list === '' ? [] : list.split(','), replayPath };
  }

  toJSON() {
    return this.ran();
  }

  toString(): string {
    return String(this.commands);
  }
}

const index = fc.nat({ max: 7 });
/** Records are many (a retrieval brings dozens of transactions): a wider index reaches the deleted ones. */
const recordIndex = fc.nat({ max: 63 });
const pageSize = fc.integer({ min: 1, max: 4 });
const collection = fc.constantFrom<RecordCollection>(ACCOUNTS, TRANSACTIONS);
const change: fc.Arbitrary<LinkChange> = fc.oneof(
  fc
    .constantFrom('single' as const, 'recurrent' as const)
    .map((mode) => ({ field: 'access_mode' as const, mode })),
  fc.integer({ min: 1, max: 365 }).map((days) => ({ field: 'stale_in' as const, days })),
  fc.integer({ min: 1, max: 0xffff }).map((mask) => ({ field: 'fetch_resources' as const, mask })),
);

/** Every command class, weighted. */
const command: fc.Arbitrary<ModelCommand> = fc.oneof(
  // A quarter of the registrations go through MFA (LINK-MFA-428); shrinking prefers the plain one.
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 3 }).map((n) => new RegisterLinkCommand(n === 3)) },
  { weight: 3, arbitrary: index.map((link) => new RetrieveAccountsCommand(link)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(index, index)
      .map(([link, account]) => new RetrieveTransactionsCommand(link, account)),
  },
  { weight: 1, arbitrary: pageSize.map((size) => new ListLinksCommand(size)) },
  {
    weight: 2,
    arbitrary: fc.tuple(collection, index, pageSize).map((args) => new ListRecordsCommand(...args)),
  },
  { weight: 1, arbitrary: index.map((link) => new GetLinkCommand(link)) },
  {
    weight: 1,
    arbitrary: fc.tuple(collection, recordIndex).map(([path, record]) => new GetRecordCommand(path, record)),
  },
  { weight: 3, arbitrary: index.map((link) => new RefreshLinkCommand(link)) },
  { weight: 2, arbitrary: fc.tuple(index, change).map(([link, edit]) => new PatchLinkCommand(link, edit)) },
  { weight: 6, arbitrary: index.map((link) => new DeleteLinkCommand(link)) },
  { weight: 4, arbitrary: index.map((account) => new DeleteAccountCommand(account)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...ADVANCE_STEPS).map((seconds) => new AdvanceClockCommand(seconds)),
  },
);

export interface ModelRunOptions {
  maxCommands: number;
  /** fast-check's replayPath of a failure (with the runner's `path`), to replay its shrunk sequence. */
  replayPath?: string;
}

export function modelRuns(options: ModelRunOptions): fc.Arbitrary<ModelRun> {
  return fc
    .commands([command], {
      maxCommands: options.maxCommands,
      size: 'max',
      ...(options.replayPath === undefined ? {} : { replayPath: options.replayPath }),
    })
    .map((commands) => new ModelRun(commands));
}
