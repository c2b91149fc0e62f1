/**
 * INVOICE-CANCELLED: an invoice's `status` in the SAT's words, as the provider sends it: `Vigente` while
 * the invoice is in force, `Cancelado` once the SAT cancels it.
 */
export const INVOICE_STATUS = { inForce: 'Vigente', cancelled: 'Cancelado' } as const;
