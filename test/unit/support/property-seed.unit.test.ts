import { propertySeed } from '../../support/property-seed';

describe('propertySeed', () => {
  it('is the fixed seed unless PROPERTY_SEED is set', () => {
    expect(propertySeed(26, {})).toBe(26);
    expect(propertySeed(26, { PROPERTY_SEED: '' })).toBe(26);
  });

  it('replays the seed in PROPERTY_SEED, negative ones too (fast-check prints those)', () => {
    expect(propertySeed(26, { PROPERTY_SEED: '1234' })).toBe(1234);
    expect(propertySeed(26, { PROPERTY_SEED: '-1597416498' })).toBe(-1597416498);
  });

  it('refuses a value that is no integer, rather than running other cases than asked', () => {
    for (const raw of ['abc', '1.5', '12abc']) {
      expect(() => propertySeed(26, { PROPERTY_SEED: raw })).toThrow(`PROPERTY_SEED must be an integer, got "${raw}"`);
    }
  });
});
