/**
 * What makes two tax returns of a link the same return: its kind (`type`, a yearly one may have none),
 * its `year` and its `month` (a yearly one has none). A return retrieved again keeps its id.
 */
export const taxReturnPeriod = (record: Readonly<Record<string, unknown>>): string =>
  `${String(record.type ?? 'yearly')}|${String(record.year ?? '')}|${String(record.month ?? '')}`;
