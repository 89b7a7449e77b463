import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/validation';
import { isExhausted, LIMIT_MESSAGES, limitParts, limitRules, limitValuesOf, noLimits, type LimitValues } from './limits';

const rules = limitRules<LimitValues>();
const check = (change: Partial<LimitValues>) => validate(rules, { ...noLimits(), ...change });

describe('campaign limits', () => {
  it('takes no limits, or whole numbers within the server bounds', () => {
    expect(check({})).toEqual({});
    expect(check({ usageLimitTotal: '10000000', usageLimitPerEmployee: '1000', usageLimitPeriod: 'campaign' })).toEqual({});
    for (const total of ['0', '10000001', '2.5', 'many']) {
      expect(check({ usageLimitTotal: total }).usageLimitTotal).toBe(LIMIT_MESSAGES.total);
    }
    expect(check({ usageLimitPerEmployee: '1001', usageLimitPeriod: 'day' }).usageLimitPerEmployee).toBe(LIMIT_MESSAGES.perEmployee);
  });

  it('pairs the period with the per-employee limit', () => {
    expect(check({ usageLimitPerEmployee: '2' }).usageLimitPeriod).toBe(LIMIT_MESSAGES.periodRequired);
    expect(check({ usageLimitPeriod: 'week' })).toEqual({});
    expect(check({ usageLimitPerEmployee: '2', usageLimitPeriod: 'week' })).toEqual({});
  });

  it('leaves an empty limit out of the form and reads a stored one back', () => {
    expect(limitParts(noLimits())).toEqual({ usageLimitTotal: undefined, usageLimitPerEmployee: undefined, usageLimitPeriod: undefined, verifiedOnly: false });
    const stored = { usageLimitTotal: 500, usageLimitPerEmployee: 2, usageLimitPeriod: 'week', verifiedOnly: true, usesRemaining: 0 };
    const values = limitValuesOf(stored as Parameters<typeof limitValuesOf>[0]);
    expect(values).toEqual({ usageLimitTotal: '500', usageLimitPerEmployee: '2', usageLimitPeriod: 'week', verifiedOnly: true });
    expect(limitParts(values)).toEqual({ usageLimitTotal: '500', usageLimitPerEmployee: '2', usageLimitPeriod: 'week', verifiedOnly: true });
    expect(isExhausted(stored)).toBe(true);
    expect(isExhausted({ usageLimitTotal: null, usesRemaining: null })).toBe(false);
  });
});
