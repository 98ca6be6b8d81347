/** Protobuf tables of ip-address.ts and service-cidr.ts (k8s.io/api/networking/v1
 * generated.proto), for typed clients that post them as protobuf. */
import { ConditionMessage, ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

const NETWORKING_V1 = 'io.k8s.api.networking.v1';

/** ParentReference: resource and name have no omitempty. */
const ParentReferenceMessage = message(`${NETWORKING_V1}.ParentReference`, {
  1: field.string('group'),
  2: field.string('resource', KEEP_ZERO),
  3: field.string('namespace'),
  4: field.string('name', KEEP_ZERO),
});

export const IPAddressMessage = message(`${NETWORKING_V1}.IPAddress`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', message(`${NETWORKING_V1}.IPAddressSpec`, { 1: field.message('parentRef', ParentReferenceMessage) })),
});

export const ServiceCIDRMessage = message(`${NETWORKING_V1}.ServiceCIDR`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', message(`${NETWORKING_V1}.ServiceCIDRSpec`, { 1: field.repeated('cidrs', 'string') })),
  3: field.message('status', message(`${NETWORKING_V1}.ServiceCIDRStatus`, { 1: field.repeated('conditions', ConditionMessage) })),
});
