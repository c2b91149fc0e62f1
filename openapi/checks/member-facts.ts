/**
 * What a schema says of one member, as the strictness check compares the provider's and ours.
 */
import type { JsonValue } from '../document/json.js';

/** What one member accepts. An absent `type` means any type. */
export interface MemberFacts {
  /** JSON types other than null (`integer` kept apart from `number`); absent: any. */
  type?: string[];
  nullable: boolean;
  required: boolean;
  /** `false`: the schema requires the member but does not declare it, so its type is not stated. */
  declared?: false;
  /** Every format, pattern and enum value the member must satisfy (enum values exclude null). */
  format?: string[];
  pattern?: string[];
  enum?: JsonValue[];
  /** Numeric, length and count bounds: `minimum`, `maxLength`, ... */
  bounds?: Record<string, number>;
  /** Other constraining keywords the member carries (`not`, `uniqueItems`, a closed object...). */
  constraints?: string[];
}

export type MemberMap = Map<string, MemberFacts>;
