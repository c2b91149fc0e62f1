/**
 * Test support: the provider's official Node SDK (npm `belvo`, a CommonJS package without types) loaded
 * as its README shows, with the little typing the SDK test needs.
 */
import { createRequire } from 'node:module';

// biome-ignore lint/suspicious/noExplicitAny: the SDK returns the API's JSON as it comes
export type Json = Record<string, any>;

/** What the SDK throws for a non-2xx answer (`RequestError`), or axios' error from its list walker. */
export interface RequestErrorLike {
  statusCode?: number;
  detail: Json[];
  response?: { status: number };
}

interface ListOptions {
  limit?: number;
  filters?: Record<string, string | number>;
}

interface Resource {
  list(options?: ListOptions): Promise<Json[]>;
  detail(id: string | number): Promise<Json>;
  delete(id: string): Promise<boolean>;
  resume(session: string, token: string, link: string): Promise<Json[]>;
  // biome-ignore lint/suspicious/noExplicitAny: each resource's retrieve has its own positional arguments
  retrieve(link: string, ...rest: any[]): Promise<Json[]>;
}

/** A resource whose retrieval answers the one record, as the provider's does (not a list). */
interface OneRecordResource extends Omit<Resource, 'retrieve'> {
  // biome-ignore lint/suspicious/noExplicitAny: each resource's retrieve has its own positional arguments
  retrieve(link: string, ...rest: any[]): Promise<Json>;
}

interface Links extends Omit<Resource, 'resume' | 'retrieve'> {
  register(institution: string, username: string, password?: string, options?: Json): Promise<Json>;
  resume(session: string, token: string, link: string): Promise<Json>;
  patch(id: string, options: { accessMode: string }): Promise<Json>;
  update(id: string, options: { password: string; token?: string }): Promise<Json>;
  token(id: string, scopes: string): Promise<Json>;
}

export interface BelvoClient {
  connect(): Promise<void>;
  session: { session: { defaults: { auth?: { username: string; password: string } } } };
  institutions: Resource;
  links: Links;
  widgetToken: { create(options?: Json): Promise<Json> };
  accounts: Resource;
  owners: Resource;
  transactions: Resource;
  incomes: OneRecordResource;
  recurringExpense: Resource;
  riskInsights: Resource;
  invoices: Resource;
  taxReturns: Resource;
  taxStatus: OneRecordResource;
  taxComplianceStatus: OneRecordResource;
  taxRetentions: Resource;
  employmentRecords: Resource;
}

/** The resources whose records the SDK retrieves for a link. */
export type RetrievedResource =
  | 'owners'
  | 'accounts'
  | 'transactions'
  | 'incomes'
  | 'recurringExpense'
  | 'riskInsights'
  | 'invoices'
  | 'taxReturns'
  | 'taxStatus'
  | 'taxComplianceStatus'
  | 'taxRetentions'
  | 'employmentRecords';

/** The records of a retrieval's answer: its list, or the one record it answers. */
export const recordsOf = (answer: Json | Json[]): Json[] => (Array.isArray(answer) ? answer : [answer]);

const require = createRequire(import.meta.url);

/** `new Client(secretKeyId, secretKeyPassword, url)`, the SDK's entry point. */
export const SdkClient = (
  require('belvo') as { default: new (id: string, password: string, url: string) => BelvoClient }
).default;

/** The error a promise rejects with; fails when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<RequestErrorLike> {
  try {
    await promise;
  } catch (error) {
    return error as RequestErrorLike;
  }
  throw new Error('expected the SDK call to fail');
}
