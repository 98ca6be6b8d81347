/**
 * The function environment Kubernetes gives CRD validation rules: the CEL standard library plus
 * the strings, lists, sets and optional extensions and Kubernetes' regex, lists, URL,
 * quantity, IP and CIDR libraries. Built once; registries are read-only after construction.
 */
import { FunctionRegistry } from '../functions.js';
import { type CelType, T } from '../types.js';
import { registerConversions } from './conversions.js';
import { CIDR_TYPE, IP_TYPE, registerIp } from './ip.js';
import { registerLists } from './lists.js';
import { registerOperators } from './operators.js';
import { registerOptionals } from './optionals.js';
import { QUANTITY_TYPE, registerQuantity } from './quantity.js';
import { registerRegex } from './regex.js';
import { registerStrings } from './strings.js';
import { registerTime } from './time.js';
import { registerUrls, URL_TYPE } from './urls.js';

/** createStandardRegistry builds the registry of every function available to rules. */
export function createStandardRegistry(): FunctionRegistry {
  const registry = new FunctionRegistry();
  registerOperators(registry);
  registerConversions(registry);
  registerStrings(registry);
  registerRegex(registry);
  registerTime(registry);
  registerLists(registry);
  registerOptionals(registry);
  registerQuantity(registry);
  registerUrls(registry);
  registerIp(registry);
  return registry;
}

/** TYPE_IDENTIFIERS maps the names usable as type values (`type(x) == int`) to their types. */
export const TYPE_IDENTIFIERS: ReadonlyMap<string, CelType> = new Map<string, CelType>([
  ['int', T.int],
  ['uint', T.uint],
  ['double', T.double],
  ['bool', T.bool],
  ['string', T.string],
  ['bytes', T.bytes],
  ['null_type', T.null],
  ['list', T.list(T.dyn)],
  ['map', T.map(T.dyn, T.dyn)],
  ['type', T.type(T.dyn)],
  ['dyn', T.dyn],
  ['optional_type', T.optional(T.dyn)],
  ['google.protobuf.Timestamp', T.timestamp],
  ['google.protobuf.Duration', T.duration],
  ['kubernetes.Quantity', QUANTITY_TYPE],
  ['kubernetes.URL', URL_TYPE],
  ['net.IP', IP_TYPE],
  ['net.CIDR', CIDR_TYPE],
]);

/** STANDARD_REGISTRY is the shared, read-only registry. */
export const STANDARD_REGISTRY = createStandardRegistry();

/** isQualifiedName reports whether a dotted name is a namespaced function or type identifier
 * (`optional.none`, `sets.contains`, `google.protobuf.Timestamp`), for the parser. */
export function isQualifiedName(name: string): boolean {
  return TYPE_IDENTIFIERS.has(name) || (name.includes('.') && STANDARD_REGISTRY.has(name));
}
