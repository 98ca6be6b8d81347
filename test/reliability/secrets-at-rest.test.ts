/**
 * Secret values stay where they belong: the data dir is its owner's alone, and kubesim's own
 * views (the history API that `kubesim trace`, `kubesim watch` and the live view read) show that
 * a Secret changed, never its values.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_PATH } from '../../cli/commands/history-client.js';
import { request } from '../support/http.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

const SECRETS = '/api/v1/namespaces/default/secrets';

describe('secrets at rest and in kubesim’s views', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster({ persistent: true });
    const lastApplied = JSON.stringify({ stringData: { password: 'hunter2' } });
    await request(`${cluster.url}${SECRETS}`, {
      method: 'POST',
      body: {
        metadata: { name: 's', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } },
        data: { password: Buffer.from('hunter2').toString('base64') },
      },
    });
    await request(`${cluster.url}${SECRETS}/s`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { data: { password: Buffer.from('correct horse').toString('base64'), token: 'dG9rZW4=' } },
    });
  });
  afterAll(() => cluster.stop());

  it('creates the data dir and database for their owner only', () => {
    const dataDir = join(cluster.dir, 'data');
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'kubesim.db')).mode & 0o777).toBe(0o600);
  });

  it('shows which Secret fields changed, never their values', async () => {
    const history = await request(`${cluster.url}${HISTORY_PATH}?resource=secrets&includeObject=true`);
    const text = JSON.stringify(history.body);
    for (const secret of ['hunter2', 'aHVudGVyMg==', 'Y29ycmVjdCBob3JzZQ==', 'dG9rZW4=']) expect(text).not.toContain(secret);
    const modified = history.body.items.find((item: { type: string }) => item.type === 'MODIFIED');
    expect(modified.diff).toEqual(
      expect.arrayContaining([
        { path: 'data.password', old: '<redacted>', new: '<redacted>' },
        { path: 'data.token', new: '<redacted>' },
      ]),
    );
    expect(modified.object.data).toEqual({ password: '<redacted>', token: '<redacted>' });
    // The Kubernetes API itself still serves the Secret, as a real cluster does.
    expect((await request(`${cluster.url}${SECRETS}/s`)).body.data.token).toBe('dG9rZW4=');
  });
});
