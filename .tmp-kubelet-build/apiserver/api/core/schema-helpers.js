/**
 * Small zod builders shared by the core/v1 schemas: closed string sets worded as Kubernetes'
 * "Unsupported value" errors, and pass-through objects for parts kubesim does not model.
 */
import { z } from 'zod';
/** enumOf is a closed string set (Kubernetes' `+enum` types). A value outside it fails with
 * the detail Kubernetes prints for NotSupported: `supported values: "A", "B"`. */
export function enumOf(values) {
    const detail = `supported values: ${values.map((v) => JSON.stringify(v)).join(', ')}`;
    return z.enum(values, { error: () => detail });
}
/** looseObject is an object kubesim stores as given without modelling its fields
 * (securityContext, lifecycle, projected volumes, ...). Unknown fields are preserved and the
 * OpenAPI node says so, so field validation does not reject them. */
export function looseObject(id, description) {
    return z.looseObject({}).meta({ id, description, 'x-kubernetes-preserve-unknown-fields': true });
}
/** K8S_CORE is the OpenAPI definition prefix of core/v1 types. */
export const K8S_CORE = 'io.k8s.api.core.v1';
//# sourceMappingURL=schema-helpers.js.map