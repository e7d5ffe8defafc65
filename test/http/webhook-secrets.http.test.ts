import request from 'supertest';
import { DeliverWebhooks } from '../../src/application';
import { buildContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import { loadConfig } from '../../src/infrastructure/config/config';
import { capturedLogger } from '../support/captured-logger';
import { startWebhookReceiver } from '../support/webhook-receiver';

/**
 * A subscription's secret is shown once, by POST /webhook/create, and nowhere else (issue 38):
 * not in a log line at debug, not in the list, the deliveries log, /metrics, nor in what a
 * receiver gets (only the signature made with it), through deliveries that succeed and fail.
 */
describe('webhook secrets stay out of logs, lists, metrics and deliveries', () => {
  it('shows the secret only in the answer that made it', async () => {
    const { logger, lines } = capturedLogger('debug');
    const apiToken = 'webhook-admin-token';
    const config = { ...loadConfig({}), database: { kind: 'memory' as const }, apiToken, webhookPrivateNetworks: true };
    const container = await buildContainer(config, { logger });
    const app = createApp(container);
    const receiver = await startWebhookReceiver();
    try {
      const admin = { Authorization: `Bearer ${apiToken}` };
      const made = await request(app).post('/webhook/create').set(admin).send({ url: receiver.url }).expect(201);
      const secret: string = made.body.data.secret;
      const shown: string[] = [];
      await request(app).post('/article/create').set(admin).send({ content: 'c' }).expect(201);
      await container.get(DeliverWebhooks).round();
      await container.get(DeliverWebhooks).drained();
      receiver.status = 500;
      await request(app).post('/article/create').set(admin).send({ content: 'c' }).expect(201);
      await container.get(DeliverWebhooks).round();
      await container.get(DeliverWebhooks).drained();
      shown.push((await request(app).get('/webhook').set(admin)).text);
      shown.push((await request(app).get(`/webhook/${made.body.data.id}/deliveries`).set(admin)).text);
      shown.push((await request(app).get('/metrics')).text);
      shown.push(...receiver.received.map((delivery) => JSON.stringify(delivery)));
      expect(receiver.received).toHaveLength(2);

      const logged = lines.map((line) => JSON.stringify(line)).join('\n');
      for (const part of [
        secret,
        secret.slice('whsec_'.length),
        Buffer.from(secret.slice(6), 'base64').toString('hex'),
      ]) {
        expect(logged).not.toContain(part);
        expect(shown.join('\n')).not.toContain(part);
      }
    } finally {
      await receiver.close();
    }
  });
});
