import { describe, expect, it } from 'vitest';
import { UsageError } from '../args.js';
import { load, parseTarget } from './load.js';

describe('kubesim load arguments', () => {
  it('accepts the kind spellings kubectl accepts', () => {
    for (const kind of ['deployment', 'deployments', 'deploy', 'Deployment', 'deployment.apps', 'deployments.apps']) {
      expect(parseTarget(`${kind}/web`)).toMatchObject({ def: { kind: 'Deployment' }, name: 'web' });
    }
    expect(parseTarget('rs/web-abc')).toMatchObject({ def: { kind: 'ReplicaSet' }, name: 'web-abc' });
  });

  it('rejects other kinds and malformed targets', () => {
    for (const text of ['pod/web', 'web', 'deployment/', '/web', 'deployment/a/b']) expect(() => parseTarget(text)).toThrow(UsageError);
  });

  it('needs --cpu, --memory or --off (alone), with valid quantities', async () => {
    await expect(load(['deployment/web'])).rejects.toThrow(/give --cpu and\/or --memory, or --off/);
    await expect(load(['deployment/web', '--off', '--cpu', '1'])).rejects.toThrow(/cannot be combined/);
    await expect(load(['deployment/web', '--cpu', 'lots'])).rejects.toThrow(/--cpu needs a non-negative quantity/);
    await expect(load(['deployment/web', '--memory', '-1Gi', '-n', 'shop'])).rejects.toThrow(/--memory needs/);
  });
});
