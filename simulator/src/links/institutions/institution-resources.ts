/** The resources an institution of each kind serves: shared by ofkit's catalogue and the provider's sandbox ones. */
export const BANKING_BR_RESOURCES = [
  'ACCOUNTS',
  'OWNERS',
  'TRANSACTIONS',
  'BILLS',
  'BALANCES',
  'EXCHANGES',
  'INVESTMENTS',
  'INVESTMENT_TRANSACTIONS',
];

export const FISCAL_MX_RESOURCES = [
  'INVOICES',
  'TAX_RETURNS',
  'TAX_STATUS',
  'TAX_COMPLIANCE_STATUS',
  'TAX_RETENTIONS',
  'FINANCIAL_STATEMENTS',
];
