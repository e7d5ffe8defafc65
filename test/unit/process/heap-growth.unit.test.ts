import { limitHeapGrowth } from '../../../src/process/heap-growth';

describe('limitHeapGrowth', () => {
  it('leaves a value given on the command line alone', () => {
    expect(limitHeapGrowth(['--heap-growing-percent=50'])).toBe(false);
    expect(limitHeapGrowth(['--inspect', '--heap_growing_percent', '30'])).toBe(false);
  });

  it('sets its own value otherwise', () => {
    expect(limitHeapGrowth(['--enable-source-maps'])).toBe(true);
  });
});
