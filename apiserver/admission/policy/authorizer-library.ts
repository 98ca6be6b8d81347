/**
 * Kubernetes' CEL authorizer library (k8s.io/apiserver/pkg/cel/library/authz.go) for admission
 * expressions: `authorizer.group('apps').resource('deployments').namespace('ns').name('n')
 * .check('update').allowed()`, `.subresource(...)`, `authorizer.path('/healthz').check('get')`,
 * `authorizer.serviceAccount('ns', 'sa')` to ask for another user, `authorizer.requestResource`
 * (the request's own resource), and a decision's `allowed()`, `reason()`, `errored()`,
 * `error()`. Checks ask the server's authorizer for the request's user. Field and label
 * selectors on checks are not supported.
 */

import { member } from '../../apiextensions/cel/functions.js';
import { createStandardRegistry } from '../../apiextensions/cel/library/index.js';
import type { Environment } from '../../apiextensions/cel/program.js';
import { T } from '../../apiextensions/cel/types.js';
import { CelOpaque, type CelValue } from '../../apiextensions/cel/values.js';
import type { RequestAttributes } from '../../authz/attributes.js';
import type { Authorizer } from '../../authz/authorizer.js';
import { serviceAccountGroups, serviceAccountUsername, type UserInfo } from '../../authz/user.js';

export const AUTHORIZER_TYPE = T.opaque('kubernetes.authorization.Authorizer');
const PATH_CHECK = T.opaque('kubernetes.authorization.PathCheck');
const GROUP_CHECK = T.opaque('kubernetes.authorization.GroupCheck');
export const RESOURCE_CHECK_TYPE = T.opaque('kubernetes.authorization.ResourceCheck');
const DECISION = T.opaque('kubernetes.authorization.Decision');

/** Identity-compared opaque value. */
abstract class Opaque extends CelOpaque {
  equals(other: CelValue): boolean {
    return other === this;
  }
}

export class AuthorizerValue extends Opaque {
  readonly typeName = 'kubernetes.authorization.Authorizer';
  constructor(
    readonly authorizer: Authorizer,
    readonly user: UserInfo,
  ) {
    super();
  }
}

class PathCheckValue extends Opaque {
  readonly typeName = 'kubernetes.authorization.PathCheck';
  constructor(
    readonly authz: AuthorizerValue,
    readonly path: string,
  ) {
    super();
  }
}

class GroupCheckValue extends Opaque {
  readonly typeName = 'kubernetes.authorization.GroupCheck';
  constructor(
    readonly authz: AuthorizerValue,
    readonly group: string,
  ) {
    super();
  }
}

interface ResourceFields {
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export class ResourceCheckValue extends Opaque {
  readonly typeName = 'kubernetes.authorization.ResourceCheck';
  constructor(
    readonly authz: AuthorizerValue,
    readonly fields: ResourceFields,
  ) {
    super();
  }

  with(change: Partial<ResourceFields>): ResourceCheckValue {
    return new ResourceCheckValue(this.authz, { ...this.fields, ...change });
  }
}

class DecisionValue extends Opaque {
  readonly typeName = 'kubernetes.authorization.Decision';
  constructor(
    readonly allowed: boolean,
    readonly reason: string,
    readonly error: string,
  ) {
    super();
  }
}

function decide(authz: AuthorizerValue, attributes: RequestAttributes): DecisionValue {
  try {
    const { decision, reason } = authz.authorizer.authorize(attributes);
    return new DecisionValue(decision === 'allow', reason, '');
  } catch (err) {
    return new DecisionValue(false, '', err instanceof Error ? err.message : String(err));
  }
}

function resourceCheck(check: ResourceCheckValue, verb: string): DecisionValue {
  const { group, resource, subresource, namespace, name } = check.fields;
  return decide(check.authz, {
    user: check.authz.user,
    verb,
    apiGroup: group,
    resource,
    ...(subresource ? { subresource } : {}),
    ...(name ? { name } : {}),
    ...(namespace ? { namespace } : {}),
  });
}

const str = (v: CelValue | undefined) => v as string;

function createAdmissionRegistry() {
  const registry = createStandardRegistry();
  registry.add(
    'path',
    member([AUTHORIZER_TYPE, T.string], PATH_CHECK, ([a, p]) => new PathCheckValue(a as AuthorizerValue, str(p))),
  );
  registry.add(
    'group',
    member([AUTHORIZER_TYPE, T.string], GROUP_CHECK, ([a, g]) => new GroupCheckValue(a as AuthorizerValue, str(g))),
  );
  registry.add(
    'serviceAccount',
    member([AUTHORIZER_TYPE, T.string, T.string], AUTHORIZER_TYPE, ([a, ns, name]) => {
      const user = { username: serviceAccountUsername(str(ns), str(name)), groups: serviceAccountGroups(str(ns)) };
      return new AuthorizerValue((a as AuthorizerValue).authorizer, user);
    }),
  );
  registry.add(
    'resource',
    member([GROUP_CHECK, T.string], RESOURCE_CHECK_TYPE, ([g, r]) => {
      const check = g as GroupCheckValue;
      return new ResourceCheckValue(check.authz, { group: check.group, resource: str(r), subresource: '', namespace: '', name: '' });
    }),
  );
  for (const field of ['subresource', 'namespace', 'name'] as const) {
    registry.add(
      field,
      member([RESOURCE_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE, ([c, v]) => (c as ResourceCheckValue).with({ [field]: str(v) })),
    );
  }
  registry.add(
    'check',
    member([RESOURCE_CHECK_TYPE, T.string], DECISION, ([c, verb]) => resourceCheck(c as ResourceCheckValue, str(verb))),
    member([PATH_CHECK, T.string], DECISION, ([c, verb]) => {
      const check = c as PathCheckValue;
      return decide(check.authz, { user: check.authz.user, verb: str(verb), path: check.path });
    }),
  );
  registry.add(
    'allowed',
    member([DECISION], T.bool, ([d]) => (d as DecisionValue).allowed),
  );
  registry.add(
    'reason',
    member([DECISION], T.string, ([d]) => (d as DecisionValue).reason),
  );
  registry.add(
    'errored',
    member([DECISION], T.bool, ([d]) => (d as DecisionValue).error !== ''),
  );
  registry.add(
    'error',
    member([DECISION], T.string, ([d]) => (d as DecisionValue).error),
  );
  return registry;
}

/** REQUEST_RESOURCE is the dotted variable `authorizer.requestResource`. */
export const REQUEST_RESOURCE = 'authorizer.requestResource';

/** ADMISSION_ENVIRONMENT: the standard functions plus the authorizer library. */
export const ADMISSION_ENVIRONMENT: Environment = {
  registry: createAdmissionRegistry(),
  qualifiedVariables: new Set([REQUEST_RESOURCE]),
};
