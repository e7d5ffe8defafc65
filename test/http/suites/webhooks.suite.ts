import { Webhook } from 'standardwebhooks';
import { DeliverWebhooks } from '../../../src/application';
import type { StorageKind } from '../../support/http-harness';
import { TestClock } from '../../support/test-clock';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { failureBody, useHarness } from './harness-per-suite';

const TOKEN = 'the-admin-token';
const ADMIN = { Authorization: `Bearer ${TOKEN}` };
const ALL_EVENTS = ['article.published', 'article.updated', 'article.unpublished', 'article.deleted'];

/** api.md "Webhooks": subscriptions for admins, deliveries signed by Standard Webhooks, the log. */
export function webhooksSuite(kind: StorageKind): void {
  describe('webhooks', () => {
    describe('without API_TOKEN or keys', () => {
      const harness = useHarness(kind);
      it('answers 401 on every route', async () => {
        const http = harness().http();
        for (const call of [
          http.post('/webhook/create').send({ url: 'https://hooks.example.com/' }),
          http.get('/webhook'),
          http.post('/webhook/delete').send({ id: 'wh_1' }),
          http.get('/webhook/wh_1/deliveries'),
        ]) {
          const answer = await call.expect(401);
          expect(answer.body).toEqual(failureBody(/^Managing webhooks needs/));
        }
      });
    });

    describe('refusing addresses that are not public (WEBHOOK_ALLOW_PRIVATE_NETWORKS unset)', () => {
      const harness = useHarness(kind, { apiToken: TOKEN });
      it.each([
        'http://127.0.0.1/hook',
        'http://127.1/hook',
        'http://2130706433/hook',
        'http://localhost:8080/hook',
        'http://10.1.2.3/',
        'http://172.16.0.1/',
        'http://192.168.1.1/',
        'http://100.64.0.1/',
        'http://169.254.169.254/latest/meta-data/',
        'http://0.0.0.0/',
        'http://[::1]/',
        'http://[::ffff:127.0.0.1]/',
        'http://[::ffff:a9fe:a9fe]/',
        'http://[fd00::1]/',
        'http://[fe80::1]/',
        'http://[64:ff9b::7f00:1]/',
        'http://224.0.0.1/',
      ])('%s is a 400 naming url, and nothing is stored', async (url) => {
        const answer = await harness().http().post('/webhook/create').set(ADMIN).send({ url }).expect(400);
        expect(answer.body).toEqual(failureBody(/^url: .*(not a public address|resolves to)/));
        expect((await harness().http().get('/webhook').set(ADMIN).expect(200)).body.data).toEqual([]);
      });

      it('refuses other schemes, a bad URL, credentials, unknown events and a host that does not resolve', async () => {
        const refused = async (body: object, message: RegExp) =>
          expect((await harness().http().post('/webhook/create').set(ADMIN).send(body).expect(400)).body).toEqual(
            failureBody(message),
          );
        await refused({ url: 'ftp://hooks.example.com/' }, /^url: must be an http or https URL$/);
        await refused({ url: 'not a url' }, /^url: must be an absolute http or https URL$/);
        await refused({ url: 'https://user:pw@hooks.example.com/' }, /^url: must not carry a user name or password$/);
        await refused({ url: 'https://no-such-host.invalid/' }, /^url: the host does not resolve/);
        await refused(
          { url: 'https://hooks.example.com/', events: ['article.read'] },
          /^events: "article.read" is not one of/,
        );
        await refused({ url: 'https://hooks.example.com/', events: [] }, /^events: must name at least one/);
      });
    });

    describe('delivering (WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, a receiver on 127.0.0.1)', () => {
      const clock = new TestClock('2026-05-01T10:00:00.000Z');
      const harness = useHarness(kind, { apiToken: TOKEN, webhookPrivateNetworks: true }, { clock });
      let receiver: WebhookReceiver;
      beforeAll(async () => {
        receiver = await startWebhookReceiver();
      });
      afterAll(() => receiver.close());
      beforeEach(() => {
        receiver.received.length = 0;
        receiver.status = 204;
        clock.set('2026-05-01T10:00:00.000Z');
      });
      const http = () => harness().http();
      const subscribe = async (extra: object = {}) =>
        (
          await http()
            .post('/webhook/create')
            .set(ADMIN)
            .send({ url: receiver.url, ...extra })
            .expect(201)
        ).body.data;
      /** Rounds of the deliverer, as every instance's timer runs them, until one finds nothing due. */
      const deliver = async () => {
        const deliverer = harness().container.get(DeliverWebhooks);
        for (;;) {
          const attempts = await deliverer.round();
          if (attempts.length === 0) return;
          await deliverer.drained();
        }
      };

      it('creates a subscription with a secret shown once; lists and deletes it', async () => {
        const created = await subscribe({ description: 'site' });
        expect(created).toEqual({
          id: expect.stringMatching(/^wh_[0-9a-f]{32}$/),
          url: receiver.url,
          events: ALL_EVENTS,
          description: 'site',
          secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
          createdAt: '2026-05-01T10:00:00.000Z',
        });
        const listed = (await http().get('/webhook').set(ADMIN).expect(200)).body.data;
        expect(listed).toEqual([{ ...created, secret: undefined }].map(({ secret, ...rest }) => rest));
        expect(JSON.stringify(listed)).not.toContain(created.secret);
        await http().post('/webhook/delete').set(ADMIN).send({ id: created.id }).expect(200);
        await http().post('/webhook/delete').set(ADMIN).send({ id: created.id }).expect(404);
        await http().get(`/webhook/${created.id}/deliveries`).set(ADMIN).expect(404);
      });

      it('POSTs each event signed so that the standardwebhooks package verifies it, and logs the delivery', async () => {
        // The package refuses a webhook-timestamp more than 5 minutes from its own clock.
        const now = new Date(Math.floor(Date.now() / 1000) * 1000);
        clock.set(now);
        const { id, secret } = await subscribe();
        const article = (
          await http().post('/article/create').set(ADMIN).send({ title: 'Hi', content: 'c' }).expect(201)
        ).body.data;
        await deliver();
        expect(receiver.received).toHaveLength(1);
        const [delivery] = receiver.received;
        const headers = delivery?.headers as Record<string, string>;
        expect(headers['content-type']).toBe('application/json');
        const verified = new Webhook(secret).verify(delivery?.body as string, headers);
        expect(verified).toEqual({ type: 'article.published', timestamp: article.publishedAt, data: article });
        expect(() =>
          new Webhook(`whsec_${Buffer.alloc(32).toString('base64')}`).verify(delivery?.body as string, headers),
        ).toThrow();

        const log = (await http().get(`/webhook/${id}/deliveries`).set(ADMIN).expect(200)).body.data;
        expect(log).toEqual([
          {
            eventId: headers['webhook-id'],
            type: 'article.published',
            attempts: 1,
            state: 'delivered',
            lastStatus: 204,
            lastError: null,
            nextAttemptAt: null,
            deliveredAt: now.toISOString(),
          },
        ]);
        expect(JSON.stringify(log)).not.toContain(secret);
      });

      it('sends updated, unpublished and deleted; nothing for drafts; only the events subscribed to', async () => {
        await subscribe();
        await subscribe({ events: ['article.deleted'] });
        const { id } = (await http().post('/article/create').set(ADMIN).send({ content: 'c' }).expect(201)).body.data;
        await http().post('/article/update').set(ADMIN).send({ id, content: 'edited' }).expect(200);
        await http().post('/article/update').set(ADMIN).send({ id, visible: false }).expect(200);
        await http().post('/article/update').set(ADMIN).send({ id, content: 'a draft edited' }).expect(200);
        await http().post('/article/update').set(ADMIN).send({ id, visible: true }).expect(200);
        await http().post('/article/delete').set(ADMIN).send({ id }).expect(200);
        await deliver();
        const types = receiver.received.map(({ body }) => JSON.parse(body).type).sort();
        expect(types).toEqual(
          [
            'article.deleted',
            'article.deleted',
            'article.published',
            'article.published',
            'article.unpublished',
            'article.updated',
          ].sort(),
        );
      });

      it('retries what a receiver refused, and a scheduled article arrives at its time', async () => {
        const { id: webhookId } = await subscribe();
        receiver.status = 503;
        await http().post('/article/create').set(ADMIN).send({ content: 'now' }).expect(201);
        await http()
          .post('/article/create')
          .set(ADMIN)
          .send({ content: 'later', publishedAt: '2026-05-01T11:00:00.000Z' })
          .expect(201);
        await deliver();
        expect(receiver.received).toHaveLength(1);
        const log = (await http().get(`/webhook/${webhookId}/deliveries`).set(ADMIN).expect(200)).body.data;
        expect(log).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ state: 'pending', attempts: 1, lastStatus: 503, lastError: 'answered 503' }),
            expect.objectContaining({ state: 'pending', attempts: 0, nextAttemptAt: '2026-05-01T11:00:00.000Z' }),
          ]),
        );

        receiver.status = 200;
        clock.set('2026-05-01T11:00:00.000Z');
        await deliver();
        const bodies = receiver.received.slice(1).map(({ body }) => JSON.parse(body));
        expect(bodies.map((body) => [body.type, body.data.content, body.data.status]).sort()).toEqual([
          ['article.published', 'later', 'published'],
          ['article.published', 'now', 'published'],
        ]);
        const page = await http().get(`/webhook/${webhookId}/deliveries?limit=1`).set(ADMIN).expect(200);
        expect(page.headers.link).toMatch(
          /^<\/webhook\/wh_[0-9a-f]+\/deliveries\?limit=1&before=[A-Za-z0-9_-]+>; rel="next"$/,
        );
        const next = (page.headers.link as string).slice(1, (page.headers.link as string).indexOf('>'));
        const rest = (await http().get(next).set(ADMIN).expect(200)).body.data;
        expect([...page.body.data, ...rest].map((delivery: { state: string }) => delivery.state)).toEqual([
          'delivered',
          'delivered',
        ]);
      });
    });
  });
}
