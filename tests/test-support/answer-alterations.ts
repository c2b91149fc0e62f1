/**
 * How the altering proxy changes a JSON answer in ways a faithful server may show (harmless
 * differences the suite and Pact must accept): members in another order, optional deprecated members
 * left out, an undocumented member on every record. Faults of a rule are the simulator's breaks
 * (`--break RULE-ID[:name]`), not alterations here.
 */

export interface BodyAlterations {
  /** Harmless: every JSON object's members in reverse order. */
  reversedMembers?: boolean;
  /** Harmless: these members (optional, deprecated ones) left out of every object. */
  omittedMembers?: readonly string[];
  /** Harmless: every JSON object with a string `id` gets this undocumented member. */
  extraMember?: string;
}

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `change` applied to every object of a JSON value, innermost first. */
function mapObjects(value: Json, change: (object: Record<string, Json>) => Record<string, Json>): Json {
  if (Array.isArray(value)) return value.map((item) => mapObjects(item, change));
  if (!isObject(value)) return value;
  return change(
    Object.fromEntries(Object.entries(value).map(([key, child]) => [key, mapObjects(child, change)])),
  );
}

/** The body after every alteration asked for. */
export function alterBody(alterations: BodyAlterations, body: Json): Json {
  let altered = body;
  const { extraMember } = alterations;
  if (extraMember)
    altered = mapObjects(altered, (object) =>
      typeof object.id === 'string' ? { ...object, [extraMember]: 'undocumented' } : object,
    );
  const omitted = new Set(alterations.omittedMembers ?? []);
  if (omitted.size > 0)
    altered = mapObjects(altered, (object) =>
      Object.fromEntries(Object.entries(object).filter(([key]) => !omitted.has(key))),
    );
  if (alterations.reversedMembers)
    altered = mapObjects(altered, (object) => Object.fromEntries(Object.entries(object).reverse()));
  return altered;
}

/** Whether any alteration is asked for (a body is parsed and written again only then). */
export const altersBodies = ({ reversedMembers, omittedMembers, extraMember }: BodyAlterations) =>
  reversedMembers === true || (omittedMembers?.length ?? 0) > 0 || Boolean(extraMember);
