/**
 * Declarative descriptions of Kubernetes' protobuf messages: for each field number, the
 * JSON name and the value type. Each kind's tables live next to its zod schema
 * (`deployment-protobuf.ts` beside `deployment.ts`); the field numbers and types are those
 * of Kubernetes' published `generated.proto` files (k8s.io/api, k8s.io/apimachinery).
 *
 * Decoding a message with these tables yields the JSON a Go client would have sent for the
 * same object (see decode-message.ts), which is why the tables also record which zero
 * values Go's JSON encoder keeps:
 *
 * - gogo-protobuf writes every non-pointer scalar, even when it is zero (`workingDir: ""`,
 *   `hostPort: 0`), and pointer scalars only when set;
 * - Go's JSON encoder drops zero `omitempty` fields but keeps pointer fields and fields
 *   without `omitempty`.
 *
 * So a zero scalar is dropped unless the field says `keepZero` (a Go pointer such as
 * `replicas *int32`, or a field without omitempty such as `containerPort`). Messages are
 * kept whenever present, as Go's JSON keeps non-pointer structs (`resources: {}`).
 */

/** ScalarType is a protobuf scalar as Kubernetes uses them; bytes become base64 strings in JSON. */
export type ScalarType = 'string' | 'int32' | 'int64' | 'bool' | 'bytes';

/** ValueType is what a field holds: a scalar or an embedded message. */
export type ValueType = ScalarType | MessageType;

/**
 * MessageType describes one protobuf message. `toJson`, set for the well-known types
 * (Time, Quantity, IntOrString, ...), turns the decoded fields into their JSON form;
 * returning undefined omits the field (a zero Time is `null` in Go's JSON). It may throw
 * an Error for a value it cannot represent; the decoder reports it as a ProtobufError.
 */
export interface MessageType {
  /** The protobuf name, Kubernetes' OpenAPI spelling, e.g. `io.k8s.api.apps.v1.DeploymentSpec` (used in errors and warnings). */
  readonly name: string;
  readonly fields: Readonly<Record<number, FieldSpec>>;
  readonly toJson?: (decoded: Record<string, unknown>) => unknown;
}

/** Cardinality: one value, a list (`repeated`) or a `map<string, V>` (entries {1 key, 2 value}). */
export type Cardinality = 'single' | 'repeated' | 'map';

/** FieldSpec describes one field of a message. */
export interface FieldSpec {
  /** The JSON name; ignored for inline fields. */
  readonly json: string;
  readonly type: ValueType;
  readonly cardinality: Cardinality;
  /** Keep the zero value of a single scalar (Go pointer or no omitempty); see the module comment. */
  readonly keepZero?: boolean;
  /** An embedded Go struct (`json:",inline"`): its fields are merged into the parent object. */
  readonly inline?: boolean;
}

/** FieldOptions are the per-field flags of the scalar builders. */
export interface FieldOptions {
  keepZero?: boolean;
}

/** KEEP_ZERO marks a scalar whose zero value is meaningful: a Go pointer, or no omitempty. */
export const KEEP_ZERO: FieldOptions = { keepZero: true };

/** message declares a message type; `fields` maps field numbers to their specs. */
export function message(name: string, fields: Record<number, FieldSpec>, toJson?: MessageType['toJson']): MessageType {
  return toJson ? { name, fields, toJson } : { name, fields };
}

const single = (json: string, type: ValueType, options: FieldOptions = {}): FieldSpec => ({
  json,
  type,
  cardinality: 'single',
  ...options,
});

/** Field builders, one per shape, so tables read like the .proto they come from. */
export const field = {
  string: (json: string, options?: FieldOptions) => single(json, 'string', options),
  int32: (json: string, options?: FieldOptions) => single(json, 'int32', options),
  int64: (json: string, options?: FieldOptions) => single(json, 'int64', options),
  bool: (json: string, options?: FieldOptions) => single(json, 'bool', options),
  bytes: (json: string, options?: FieldOptions) => single(json, 'bytes', options),
  message: (json: string, type: MessageType) => single(json, type),
  /** An embedded struct whose fields appear in the parent's JSON (VolumeSource in Volume). */
  inline: (type: MessageType): FieldSpec => ({ json: '', type, cardinality: 'single', inline: true }),
  repeated: (json: string, type: ValueType): FieldSpec => ({ json, type, cardinality: 'repeated' }),
  /** A `map<string, V>`; string values unless said otherwise. */
  map: (json: string, type: ValueType = 'string'): FieldSpec => ({ json, type, cardinality: 'map' }),
};

/** isScalar tells scalar value types from message types. */
export function isScalar(type: ValueType): type is ScalarType {
  return typeof type === 'string';
}
