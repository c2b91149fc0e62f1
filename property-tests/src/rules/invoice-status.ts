/**
 * INVOICE-CANCELLED: the words the rule names for an invoice's `status`, the SAT's, as the provider
 * sends them: `Cancelado` once the invoice is cancelled, `Vigente` while it is in force.
 */
export const INVOICE_STATUS = { member: 'status', cancelled: 'Cancelado', inForce: 'Vigente' } as const;
