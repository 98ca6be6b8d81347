/** APPS_V1 is the OpenAPI definition prefix of apps/v1 types (schemas and protobuf tables). */
export const APPS_V1 = 'io.k8s.api.apps.v1';
