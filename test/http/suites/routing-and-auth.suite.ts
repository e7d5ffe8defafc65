import request from 'supertest';
import type { StorageKind } from '../../support/http-harness';
import { failureBody, useHarness } from './harness-per-suite';

export function routingSuite(kind: StorageKind): void {
  describe('routing and demonstration routes', () => {
    const harness = useHarness(kind);

    it.each([
      ['GET', '/nothing-here'],
      ['GET', '/article/create'],
      ['GET', '/article/update'],
      ['GET', '/article/delete'],
      ['DELETE', '/article'],
      ['POST', '/article'],
      ['PUT', '/article/1'],
      ['POST', '/seed/create'],
      ['POST', '/tag'],
      ['GET', '/user'],
      ['GET', '/user/list?x=1'],
      ['GET', '/user/list/'],
      ['GET', '/user/add'],
      ['POST', '/user/list'],
      ['GET', '/USER/LIST'],
    ])('%s %s is a 404 in the wrapper', async (method, path) => {
      const response = await harness().http()[method.toLowerCase() as 'get'](path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(failureBody(/^No route for /));
    });

    it('answers HEAD as GET without the body, its length and headers kept', async () => {
      const get = await harness().http().get('/tag');
      // HEAD is not in the OpenAPI document (no client asks for it): sent past the harness's check.
      const head = await request(harness().app).head('/tag');
      expect(head.status).toBe(200);
      expect(head.text ?? '').toBe('');
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
      expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(head.headers['x-content-type-options']).toBe('nosniff');
      expect(head.headers['x-request-id']).toMatch(/^[\w.:-]+$/);
    });

    // Paths are exact: another case or a trailing slash is another path, on every router the app mounts.
    it.each([
      ['GET', '/Article'],
      ['GET', '/article/'],
      ['GET', '/ARTICLE/1'],
      ['GET', '/article/1/'],
      ['POST', '/Article/create'],
      ['POST', '/article/create/'],
      ['POST', '/article/UPDATE'],
      ['GET', '/Tag'],
      ['GET', '/category/'],
      ['GET', '/Seed/create'],
      ['GET', '/Health'],
      ['GET', '/health/'],
      ['GET', '/ready/'],
      ['GET', '/ready/Write'],
      ['GET', '/Metrics'],
      ['GET', '/metrics/'],
      ['GET', '/OpenAPI.json'],
      ['GET', '/openapi.json/'],
      ['GET', '/Docs'],
      ['GET', '/DOCS/'],
    ])('%s %s, a documented path in another spelling, is a 404 in the wrapper', async (method, path) => {
      const response = await harness().http()[method.toLowerCase() as 'get'](path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(failureBody(/^No route for /));
    });

    it('GET /user/list answers the demonstration users', async () => {
      const response = await harness().http().get('/user/list');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        success: true,
        code: 10000,
        data: expect.arrayContaining([{ name: expect.any(String), age: 18 }]),
      });
      expect(response.body.data.length).toBeGreaterThanOrEqual(2);
    });

    it('POST /user/add answers success, whatever the body', async () => {
      const response = await harness().http().post('/user/add').send({ anything: true });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, code: 10000 });
    });

    it('echoes a request id, and does not say it is Express', async () => {
      const response = await harness().http().get('/article').set('X-Request-Id', 'abc-123');
      expect(response.headers['x-request-id']).toBe('abc-123');
      expect(response.headers['x-powered-by']).toBeUndefined();
    });
  });

  describe('API_TOKEN', () => {
    const harness = useHarness(kind, { apiToken: 's3cret' });

    it.each([
      ['POST', '/article/create'],
      ['POST', '/article/update'],
      ['POST', '/article/delete'],
      ['GET', '/seed/create'],
    ])('%s %s without the token is a 401, checked before the body', async (method, path) => {
      const call = harness().http()[method.toLowerCase() as 'get'](path);
      const response = await call.set('Content-Type', 'application/json').send('{not json');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(failureBody(/Authorization: Bearer/));
      expect(response.headers['www-authenticate']).toBe('Bearer');
    });

    it('refuses a wrong token and another scheme', async () => {
      for (const header of ['Bearer wrong', 'Basic s3cret', 's3cret', 'Bearer s3cret2']) {
        const response = await harness().http().get('/seed/create').set('Authorization', header);
        expect(response.status).toBe(401);
      }
      expect((await harness().http().get('/article')).body.data).toEqual([]);
    });

    it('accepts the token with the scheme in any case', async () => {
      const created = await harness()
        .http()
        .post('/article/create')
        .set('Authorization', 'bearer s3cret')
        .send({ content: 'c' });
      expect(created.status).toBe(201);
      const seeded = await harness().http().get('/seed/create').set('Authorization', 'BEARER s3cret');
      expect(seeded.status).toBe(200);
    });

    it('leaves reads and the demonstration routes open', async () => {
      for (const path of ['/article', '/article/1', '/tag', '/category', '/user/list']) {
        expect((await harness().http().get(path)).status).toBe(200);
      }
      expect((await harness().http().post('/user/add')).status).toBe(200);
    });
  });
}
