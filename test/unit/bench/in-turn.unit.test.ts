import { inTurn } from '../../../bench/in-turn';

describe('inTurn', () => {
  it('starts each round one server further along, so that every server runs first in turn', () => {
    const servers = ['service', 'Express floor', 'raw floor'];
    expect([1, 2, 3, 4].map((round) => inTurn(servers, round))).toEqual([
      ['service', 'Express floor', 'raw floor'],
      ['Express floor', 'raw floor', 'service'],
      ['raw floor', 'service', 'Express floor'],
      ['service', 'Express floor', 'raw floor'],
    ]);
  });

  it('leaves a single server alone', () => {
    expect(inTurn(['service'], 2)).toEqual(['service']);
  });
});
