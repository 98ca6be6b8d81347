/**
 * The three PATCH engines of the API server, as pure functions over decoded JSON:
 * - applyJsonPatch: RFC 6902 (`application/json-patch+json`);
 * - applyMergePatch: RFC 7386 (`application/merge-patch+json`);
 * - applyStrategicMergePatch: Kubernetes strategic merge patch
 *   (`application/strategic-merge-patch+json`), driven by the patch strategies declared
 *   on the zod schemas (apiserver/api/patch-meta.ts) as JSON-schema nodes.
 * All of them throw PatchError, whose reason maps to a 400 or 422 Status.
 *
 * May import: apiserver/api (schema nodes) only. Nothing here knows about HTTP, storage
 * or resource kinds. See docs/architecture.md (where patches are applied in a request)
 * and docs/api-conventions.md; each engine's file lists where it departs from the Go
 * library kube-apiserver uses.
 */
export { isPatchError, PatchError, type PatchErrorReason, PatchErrorReasons } from './errors.js';
export { applyJsonPatch, decodeJsonPatch, type JsonPatchOperation } from './json-patch.js';
export { applyMergePatch } from './merge-patch.js';
export { applyStrategicMergePatch, type StrategicMergePatchSchema } from './strategic-merge-patch.js';
