/**
 * `--not-applicable ITEM=reason` (the whole item) and `--not-applicable ITEM:SITUATION=reason` (one of the
 * situations the item requires): what a team declares does not apply to its client, with the reason a
 * reviewer reads in the bundle. Declared, never assumed: the item is at best Ready with risks.
 */
import type { Catalogue } from '../catalogue/catalogue-types.js';

export interface NotApplicable {
  readonly item: string;
  /** One situation of the item; absent: the whole item. */
  readonly situation?: string;
  readonly reason: string;
}

/** A declaration that does not name an item of the checklist (or a situation of that item). */
export class NotApplicableError extends Error {
  override name = 'NotApplicableError';
}

/** Parses one `--not-applicable` value against the checklist. */
export function parseNotApplicable(text: string, catalogue: Catalogue): NotApplicable {
  const equals = text.indexOf('=');
  const target = equals < 0 ? text : text.slice(0, equals);
  const reason = equals < 0 ? '' : text.slice(equals + 1).trim();
  if (reason === '')
    throw new NotApplicableError(
      `--not-applicable wants ITEM=reason or ITEM:SITUATION=reason, got "${text}"`,
    );
  const [item = '', situation] = target.split(':');
  const found = catalogue.items.find((entry) => entry.id === item);
  if (!found)
    throw new NotApplicableError(
      `--not-applicable: no checklist item ${item} (items: ${catalogue.items.map((i) => i.id).join(', ')})`,
    );
  if (situation !== undefined && !found.situations.includes(situation))
    throw new NotApplicableError(
      `--not-applicable: ${item} requires no situation ${situation} (it requires: ${found.situations.join(', ') || 'none'})`,
    );
  return situation === undefined ? { item, reason } : { item, situation, reason };
}

/** The declaration as typed on the command line (what `golive verify` passes again). */
export const notApplicableText = ({ item, situation, reason }: NotApplicable) =>
  `${item}${situation === undefined ? '' : `:${situation}`}=${reason}`;
