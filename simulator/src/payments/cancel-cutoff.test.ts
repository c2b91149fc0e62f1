import { afterEach, describe, expect, it } from 'vitest';
import { type CancelCutoff, specRulePolicy } from '../core/rule-policy.js';
import { addDays, cutoffInstant, cutoffPassed, paymentsDate, processingInstant } from './cancel-cutoff.js';

const AUTH: CancelCutoff = { time: '22:00:00', utcOffset: '-03:00', daysBefore: 1 };
const INTENT: CancelCutoff = { time: '23:59:00', utcOffset: '-03:00', daysBefore: 1 };
const savedTz = process.env.TZ;

afterEach(() => {
  process.env.TZ = savedTz;
});

describe('GMT-3 cutoffs (PAY-AUTH-CANCEL-CUTOFF, PAY-AUTH-CHARGE-CANCEL-CUTOFF, PAY-INTENT-CANCEL-CUTOFF)', () => {
  for (const tz of ['UTC', 'America/Sao_Paulo', 'Asia/Tokyo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
    it(`computes the same instants with TZ=${tz}`, () => {
      process.env.TZ = tz;
      expect(cutoffInstant('2026-11-10', AUTH)).toBe(Date.parse('2026-11-10T01:00:00Z'));
      expect(cutoffPassed(Date.parse('2026-11-10T00:59:59Z'), '2026-11-10', AUTH)).toBe(false);
      expect(cutoffPassed(Date.parse('2026-11-10T01:00:00Z'), '2026-11-10', AUTH)).toBe(true);
      expect(cutoffPassed(Date.parse('2026-11-20T02:58:59Z'), '2026-11-20', INTENT)).toBe(false);
      expect(cutoffPassed(Date.parse('2026-11-20T02:59:00Z'), '2026-11-20', INTENT)).toBe(true);
      expect(paymentsDate(Date.parse('2026-12-01T02:59:59Z'))).toBe('2026-11-30');
      expect(paymentsDate(Date.parse('2026-12-01T03:00:00Z'))).toBe('2026-12-01');
      expect(processingInstant('2026-11-10')).toBe(Date.parse('2026-11-10T09:00:00Z'));
    });
  }

  it('crosses month and year ends and leap days', () => {
    expect(addDays('2026-12-01', -1)).toBe('2026-11-30');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(cutoffInstant('2027-01-01', INTENT)).toBe(Date.parse('2027-01-01T02:59:00Z'));
    expect(cutoffInstant('2026-03-01', AUTH)).toBe(Date.parse('2026-03-01T01:00:00Z'));
  });

  it('reads the numbers from the operations` x-cancel-cutoff into the policy', () => {
    expect(specRulePolicy().payments.cancelCutoffs).toEqual({
      cancelPaymentAuthorization: AUTH,
      cancelPaymentAuthorizationCharge: AUTH,
      cancelPaymentIntent: INTENT,
      cancelPaymentIntentCharge: INTENT,
    });
  });
});
