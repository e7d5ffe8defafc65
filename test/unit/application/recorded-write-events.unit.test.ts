import { RecordedWriteEvents } from '../../../src/application';
import { InMemoryWebhookRepository } from '../../../src/infrastructure/persistence/memory/in-memory-webhook-repository';
import { TestClock } from '../../support/test-clock';

/** A repository whose next anySubscription() waits until the test releases it, or fails. */
class HeldReadings extends InMemoryWebhookRepository {
  release: (() => void) | null = null;
  failNext = false;

  override async anySubscription(): Promise<boolean> {
    if (this.failNext) throw new Error('database away');
    await new Promise<void>((resolve) => {
      this.release = resolve;
    });
    return super.anySubscription();
  }
}

describe('RecordedWriteEvents: whether writes record their events', () => {
  let clock: TestClock;
  let webhooks: HeldReadings;
  let events: RecordedWriteEvents;
  const refreshed = async () => {
    const reading = events.refresh();
    await new Promise((resolve) => setImmediate(resolve));
    webhooks.release?.();
    await reading;
  };

  beforeEach(() => {
    clock = new TestClock('2026-06-01T00:00:00.000Z');
    webhooks = new HeldReadings();
    events = new RecordedWriteEvents(webhooks, clock, () => 'evt_1', 1_000);
  });

  it('records until a reading finds no subscription, and again once that reading is 1 s old', async () => {
    expect(events.recording()).toBe(true);
    await refreshed();
    expect(events.recording()).toBe(false);
    clock.advance(999);
    expect(events.recording()).toBe(false);
    clock.advance(1);
    expect(events.recording()).toBe(true);
  });

  it('records from the moment this instance makes a subscription, even when a reading begun before it ends after', async () => {
    await refreshed();
    const stale = events.refresh();
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(10);
    events.subscriptionCreated();
    webhooks.release?.();
    await stale;
    expect(events.recording()).toBe(true);
  });

  it('records while the subscriptions cannot be read', async () => {
    await refreshed();
    webhooks.failNext = true;
    await expect(events.refresh()).rejects.toThrow('database away');
    expect(events.recording()).toBe(true);
  });
});
