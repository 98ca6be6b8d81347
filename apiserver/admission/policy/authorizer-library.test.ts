import { describe, expect, it } from 'vitest';
import { run } from '../../apiextensions/cel/program.js';
import type { RequestAttributes } from '../../authz/attributes.js';
import type { Authorizer } from '../../authz/authorizer.js';
import { AuthorizerValue, REQUEST_RESOURCE, ResourceCheckValue } from './authorizer-library.js';
import { compileExpression, declarations } from './cel-env.js';

/** A recording authorizer: allows what `allow` says, remembers every question. */
function recording(allow: (a: RequestAttributes) => boolean): Authorizer & { asked: RequestAttributes[] } {
  const asked: RequestAttributes[] = [];
  const authorize: Authorizer['authorize'] = (a) => {
    asked.push(a);
    return allow(a) ? { decision: 'allow', reason: 'granted' } : { decision: 'no-opinion', reason: 'no rule' };
  };
  return { asked, authorize };
}

const user = { username: 'alice', groups: ['devs'] };

function evaluate(expression: string, authorizer: Authorizer): unknown {
  const compiled = compileExpression(expression, declarations({ hasParams: false, hasAuthorizer: true }), [{ kind: 'dyn' }]);
  if (compiled.error !== undefined) throw new Error(compiled.error);
  const authz = new AuthorizerValue(authorizer, user);
  const request = new ResourceCheckValue(authz, { group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'shop', name: 'web' });
  return run(
    compiled.program,
    new Map<string, never>([
      ['authorizer', authz as never],
      [REQUEST_RESOURCE, request as never],
    ]),
  ).value;
}

describe('the CEL authorizer library', () => {
  it('asks the authorizer about a resource for the request user or a service account', () => {
    const authorizer = recording((a) => a.user.username === 'alice');
    expect(
      evaluate("authorizer.group('apps').resource('deployments').subresource('scale').namespace('shop').name('web').check('update').allowed()", authorizer),
    ).toBe(true);
    expect(evaluate("authorizer.serviceAccount('shop', 'deployer').group('').resource('pods').check('create').reason()", authorizer)).toBe('no rule');
    expect(authorizer.asked).toEqual([
      { user, verb: 'update', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', name: 'web', namespace: 'shop' },
      {
        user: { username: 'system:serviceaccount:shop:deployer', groups: ['system:serviceaccounts', 'system:serviceaccounts:shop', 'system:authenticated'] },
        verb: 'create',
        apiGroup: '',
        resource: 'pods',
      },
    ]);
  });

  it('checks paths and the request resource, and reports errors', () => {
    const authorizer = recording(() => true);
    expect(evaluate("authorizer.path('/healthz').check('get').allowed()", authorizer)).toBe(true);
    expect(evaluate("authorizer.requestResource.check('patch').allowed()", authorizer)).toBe(true);
    expect(authorizer.asked).toEqual([
      { user, verb: 'get', path: '/healthz' },
      { user, verb: 'patch', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', name: 'web', namespace: 'shop' },
    ]);
    const broken: Authorizer = {
      authorize: () => {
        throw new Error('webhook down');
      },
    };
    const decision = "authorizer.path('/x').check('get')";
    expect(evaluate(`${decision}.errored() && ${decision}.error() == 'webhook down' && !${decision}.allowed()`, broken)).toBe(true);
  });

  it('is not declared in messageExpressions, as in kube-apiserver', () => {
    const compiled = compileExpression("authorizer.path('/').check('get').reason()", declarations({ hasParams: true, hasAuthorizer: false }), [
      { kind: 'string' },
    ]);
    expect(compiled.error).toBe(
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.path('/').check('get').reason()\n | ^",
    );
  });
});
