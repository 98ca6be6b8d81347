/**
 * The plugin called as the admission chain calls it, against a real server's store: what the
 * HTTP response cannot show — the Audit action's validation_failure annotation and the
 * auditAnnotations of several bindings — and a DELETE seeing only oldObject.
 */
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes, AdmissionResult } from '../../apiserver/admission/plugin.js';
import { validatingAdmissionPolicy } from '../../apiserver/admission/policy/plugin.js';
import type { ResourceDefinition } from '../../apiserver/api/resource-definition.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const AR = '/apis/admissionregistration.k8s.io/v1';

describe('ValidatingAdmissionPolicy plugin', () => {
  const cluster = useTestCluster();
  const post = (path: string, body: unknown) => request(`${cluster.url}${path}`, { method: 'POST', body });

  const attributesFor = (operation: AdmissionAttributes['operation'], name: string, data: Record<string, string>): AdmissionAttributes => {
    const def = cluster.testCluster.server.context.registry.find('', 'v1', 'configmaps') as ResourceDefinition;
    const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data };
    return {
      operation,
      def,
      subresource: '',
      namespace: 'default',
      name,
      ...(operation === 'DELETE' ? { oldObject: object } : { object }),
      user: { username: 'alice', groups: ['system:authenticated'] },
      dryRun: false,
    };
  };
  const admit = (attributes: AdmissionAttributes) => {
    const result: AdmissionResult = { warnings: [], auditAnnotations: {} };
    validatingAdmissionPolicy.validate?.(cluster.testCluster.server.context, attributes, result);
    return result;
  };

  it('records Audit failures and audit annotations', async () => {
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'audited' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['configmaps'] }] },
        validations: [{ expression: 'true' }, { expression: "request.operation == 'DELETE' || object.data.size() < 2", message: 'too much data' }],
        auditAnnotations: [
          { key: 'who', valueExpression: 'request.userInfo.username' },
          { key: 'nothing', valueExpression: 'null' },
        ],
      },
    };
    expect((await post(`${AR}/validatingadmissionpolicies`, policy)).status).toBe(201);
    for (const name of ['audited-a', 'audited-b']) {
      const binding = {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name },
        spec: { policyName: 'audited', validationActions: ['Audit', 'Warn'] },
      };
      expect((await post(`${AR}/validatingadmissionpolicybindings`, binding)).status).toBe(201);
    }
    const result = await eventually(() => {
      const r = admit(attributesFor('CREATE', 'big', { a: '1', b: '2' }));
      expect(r.warnings).toHaveLength(2);
      return r;
    });
    expect(result).toEqual({
      warnings: [
        "Validation failed for ValidatingAdmissionPolicy 'audited' with binding 'audited-a': too much data",
        "Validation failed for ValidatingAdmissionPolicy 'audited' with binding 'audited-b': too much data",
      ],
      auditAnnotations: {
        'validation.policy.admission.k8s.io/validation_failure': JSON.stringify([
          { message: 'too much data', policy: 'audited', binding: 'audited-a', expressionIndex: 1, validationActions: ['Audit', 'Warn'] },
        ]),
        'audited/who': 'alice',
      },
    });
    expect(admit(attributesFor('DELETE', 'big', { a: '1', b: '2' }))).toEqual({ warnings: [], auditAnnotations: { 'audited/who': 'alice' } });
  });
});
