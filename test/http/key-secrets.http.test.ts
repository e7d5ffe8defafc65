import { createHash } from 'node:crypto';
import request from 'supertest';
import { ADMIN_WITHOUT_AUTHOR, CreateKey } from '../../src/application';
import { buildContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import { loadConfig } from '../../src/infrastructure/config/config';
import { capturedLogger } from '../support/captured-logger';

/**
 * No token in a log line, an error message or a metric (issue 37): every kind of request that
 * carries one, valid or not, on the real composition root, its log lines captured at debug.
 */
describe('tokens stay out of logs, answers and metrics', () => {
  it('logs, answers and /metrics never show a token, its hash, or API_TOKEN', async () => {
    const { logger, lines } = capturedLogger('debug');
    const apiToken = 'api-token-that-must-not-leak';
    const container = await buildContainer({ ...loadConfig({}), database: { kind: 'memory' }, apiToken }, { logger });
    const app = createApp(container);
    const { token } = await container.get(CreateKey).execute({ author: 'Ada', role: 'admin' }, ADMIN_WITHOUT_AUTHOR);
    const guessed = `${token.slice(0, -3)}xyz`;
    const answers: string[] = [];
    const send = async (test: request.Test) => answers.push((await test).text);
    for (const bearer of [token, guessed, apiToken, `${apiToken}x`]) {
      const authorization = `Bearer ${bearer}`;
      await send(request(app).get('/article').set('Authorization', authorization));
      await send(request(app).get('/article/1').set('Authorization', authorization));
      await send(
        request(app)
          .post('/article/create')
          .set('Authorization', authorization)
          .send({ content: 'c', title: `by ${bearer.length}` }),
      );
      await send(
        request(app).post('/article/update').set('Authorization', authorization).send({ id: 999, title: 't' }),
      );
      await send(request(app).get('/key').set('Authorization', authorization));
      await send(request(app).post('/key/revoke').set('Authorization', authorization).send({ id: 'nope' }));
    }
    const metrics = (await request(app).get('/metrics')).text;
    expect(lines.length).toBeGreaterThan(20);
    const logged = lines.map((line) => JSON.stringify(line)).join('\n');
    for (const secret of [token, guessed, apiToken, sha256(token), sha256(apiToken), token.slice(5, 20)]) {
      expect(logged).not.toContain(secret);
      expect(metrics).not.toContain(secret);
      expect(answers.join('\n')).not.toContain(secret);
    }
    // The refusals were logged, under their request ids, without what was sent.
    expect(lines.filter((line) => line.status === 401).length).toBeGreaterThanOrEqual(12);
  });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
