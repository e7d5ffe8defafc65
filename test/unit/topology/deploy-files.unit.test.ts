import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../../scripts/topology/settings';
import { renderTemplate } from '../../../scripts/topology/templates';

const ERRORS_DIR = path.join(REPO_ROOT, 'deploy', 'haproxy', 'errors');

describe("HAProxy's own error answers (deploy/haproxy/errors)", () => {
  it.each(['502.http', '503.http', '504.http'])('%s is a complete 503 whose body is the service wrapper', (file) => {
    const raw = fs.readFileSync(path.join(ERRORS_DIR, file));
    const split = raw.indexOf('\r\n\r\n');
    const head = raw.subarray(0, split).toString('latin1').split('\r\n');
    const body = raw.subarray(split + 4);
    expect(head[0]).toBe('HTTP/1.1 503 Service Unavailable');
    const headers = Object.fromEntries(
      head
        .slice(1)
        .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(headers['content-length'])).toBe(body.length);
    const wrapper = JSON.parse(body.toString('utf8'));
    expect(Object.keys(wrapper)).toEqual(['statusCode', 'data', 'message']);
    expect(wrapper).toMatchObject({ statusCode: 10001, data: null });
    expect(wrapper.message).toMatch(/^service unavailable: .+/);
  });
});

describe('deploy templates', () => {
  const values = {
    DATA_DIR: '/var/lib/blog/etcd',
    CLIENT_URLS: 'http://127.0.0.1:2379',
    ADVERTISE_CLIENT_URL: 'http://127.0.0.1:2379',
    PEER_PORT: 2380,
  };

  it('fills every placeholder', () => {
    const text = renderTemplate(REPO_ROOT, 'etcd/etcd.yml', values);
    expect(text).toContain('listen-peer-urls: http://127.0.0.1:2380');
    expect(text).not.toMatch(/\{\{[A-Z0-9_]+\}\}/);
  });

  it('refuses a placeholder without a value, and a value without a placeholder', () => {
    const { PEER_PORT: _missing, ...withoutPeer } = values;
    expect(() => renderTemplate(REPO_ROOT, 'etcd/etcd.yml', withoutPeer)).toThrow(
      'deploy/etcd/etcd.yml: no value for {{PEER_PORT}}',
    );
    expect(() => renderTemplate(REPO_ROOT, 'etcd/etcd.yml', { ...values, EXTRA: 1 })).toThrow(
      'no placeholder for EXTRA',
    );
  });
});
