import {
  growthIsOurs,
  HeapGrowthPolicy,
  STEADY_HEAP_GROWING_PERCENT,
  STREAMING_HEAP_GROWING_PERCENT,
} from '../../../src/process/heap-growth';

const steady = `--heap-growing-percent=${STEADY_HEAP_GROWING_PERCENT}`;
const streaming = `--heap-growing-percent=${STREAMING_HEAP_GROWING_PERCENT}`;

describe('growthIsOurs', () => {
  it('leaves a value given on the command line alone', () => {
    expect(growthIsOurs(['--heap-growing-percent=50'])).toBe(false);
    expect(growthIsOurs(['--inspect', '--heap_growing_percent', '30'])).toBe(false);
  });

  it('sets its own value otherwise', () => {
    expect(growthIsOurs(['--enable-source-maps'])).toBe(true);
  });
});

describe('HeapGrowthPolicy', () => {
  it('sets the steady factor, the streaming one while lists stream, and the steady one once the last ends', async () => {
    const set: string[] = [];
    const policy = new HeapGrowthPolicy(true, (flags) => set.push(flags));
    expect(set).toEqual([steady]);
    let endFirst = () => {};
    const first = policy.whileStreaming(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const second = policy.whileStreaming(async () => 'second');
    await expect(second).resolves.toBe('second');
    // One list still streams: the factor stays.
    expect(set).toEqual([steady, streaming]);
    endFirst();
    await first;
    expect(set).toEqual([steady, streaming, steady]);
  });

  it('goes back to the steady factor when a list fails', async () => {
    const set: string[] = [];
    const policy = new HeapGrowthPolicy(true, (flags) => set.push(flags));
    await expect(policy.whileStreaming(() => Promise.reject(new Error('cut')))).rejects.toThrow('cut');
    expect(set).toEqual([steady, streaming, steady]);
  });

  it('sets nothing when the process came with its own factor', async () => {
    const set: string[] = [];
    const policy = new HeapGrowthPolicy(false, (flags) => set.push(flags));
    await expect(policy.whileStreaming(async () => 1)).resolves.toBe(1);
    expect(set).toEqual([]);
  });
});
