/** Protobuf tables of lease.ts (k8s.io/api/coordination/v1 generated.proto). */
import { MicroTimeMessage, ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

const COORDINATION_V1 = 'io.k8s.api.coordination.v1';

export const LeaseSpecMessage = message(`${COORDINATION_V1}.LeaseSpec`, {
  1: field.string('holderIdentity', KEEP_ZERO),
  2: field.int32('leaseDurationSeconds', KEEP_ZERO),
  3: field.message('acquireTime', MicroTimeMessage),
  4: field.message('renewTime', MicroTimeMessage),
  5: field.int32('leaseTransitions', KEEP_ZERO),
  6: field.string('strategy', KEEP_ZERO),
  7: field.string('preferredHolder', KEEP_ZERO),
});

export const LeaseMessage = message(`${COORDINATION_V1}.Lease`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', LeaseSpecMessage),
});
