/**
 * Protobuf request bodies (`application/vnd.kubernetes.protobuf`, sent by kubectl ≥ 1.32 for
 * `create <generator>`, `autoscale`, `debug --copy-to`, ...): envelope → the kind's table →
 * the plain JSON object a JSON client would have sent, which then takes the usual path
 * (decodeObject: defaults, validation). Responses stay JSON.
 */
import { ApiError, badRequest } from '../api/api-error.js';
import { protobufMessageFor } from '../api/builtin-protobuf.js';
import { type DecodeContext, decodeMessage, type SkippedField } from '../api/protobuf/decode-message.js';
import { ProtobufError } from '../api/protobuf/wire.js';
import { apiVersionOf, type ResourceDefinition } from '../api/resource-definition.js';
import { decodeEnvelope } from './envelope.js';

/** PROTOBUF_MEDIA_TYPE is Kubernetes' protobuf content type. */
export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** ExpectedKind is the kind a request's endpoint serves. */
export interface ExpectedKind {
  apiVersion: string;
  kind: string;
}

/** servedKind is the apiVersion and kind of the objects `def` serves. */
export function servedKind(def: Pick<ResourceDefinition, 'group' | 'version' | 'kind'>): ExpectedKind {
  return { apiVersion: apiVersionOf(def), kind: def.kind };
}

/** acceptsProtobuf says whether bodies of `expected` may be protobuf. */
export function acceptsProtobuf(expected: ExpectedKind): boolean {
  return protobufMessageFor(expected.apiVersion, expected.kind) !== undefined;
}

/**
 * decodeProtobufObject decodes a protobuf body for an endpoint serving `expected` into a
 * plain object carrying the envelope's apiVersion and kind (the expected ones when the
 * envelope leaves them empty). A kind without a protobuf table is a 415; malformed bytes
 * are a 400 naming the offset. Fields the tables do not know are ignored, each with a
 * warning appended to `warnings`. Never throws anything but ApiError.
 */
export function decodeProtobufObject(raw: Uint8Array | undefined, expected: ExpectedKind, warnings?: string[]): Record<string, unknown> {
  try {
    const envelope = decodeEnvelope(raw ?? new Uint8Array(0));
    const apiVersion = envelope.apiVersion || expected.apiVersion;
    const kind = envelope.kind || expected.kind;
    const type = protobufMessageFor(apiVersion, kind);
    if (!type) throw unsupportedMediaType(true);
    const context: DecodeContext = { skipped: [] };
    const object = decodeMessage(envelope.raw, type, context) as Record<string, unknown>;
    warnings?.push(...context.skipped.map(skippedWarning));
    return { apiVersion, kind, ...object };
  } catch (err) {
    if (err instanceof ProtobufError) throw badRequest(`the body of the request could not be decoded as ${PROTOBUF_MEDIA_TYPE}: ${err.message}`);
    throw err;
  }
}

/** unsupportedMediaType is Kubernetes' 415, listing protobuf when the endpoint takes it. */
export function unsupportedMediaType(withProtobuf: boolean): ApiError {
  const accepted = ['application/json', 'application/yaml', ...(withProtobuf ? [PROTOBUF_MEDIA_TYPE] : [])];
  return new ApiError('UnsupportedMediaType', 415, `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

function skippedWarning({ path, field, message }: SkippedField): string {
  return `protobuf field ${field} of ${message}${path ? ` in ${path}` : ''} is not supported by kubesim and was ignored`;
}
