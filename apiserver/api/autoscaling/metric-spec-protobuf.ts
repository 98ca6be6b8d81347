/** Protobuf tables of metric-spec.ts and metric-status.ts (k8s.io/api/autoscaling/v2
 * generated.proto). */
import { LabelSelectorMessage, QuantityMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, type MessageType, message } from '../protobuf/message-type.js';
import { AUTOSCALING_V2 } from './metric-spec.js';

export const CrossVersionObjectReferenceMessage = message(`${AUTOSCALING_V2}.CrossVersionObjectReference`, {
  1: field.string('kind', KEEP_ZERO),
  2: field.string('name', KEEP_ZERO),
  3: field.string('apiVersion'),
});

export const MetricIdentifierMessage = message(`${AUTOSCALING_V2}.MetricIdentifier`, {
  1: field.string('name', KEEP_ZERO),
  2: field.message('selector', LabelSelectorMessage),
});

export const MetricTargetMessage = message(`${AUTOSCALING_V2}.MetricTarget`, {
  1: field.string('type', KEEP_ZERO),
  2: field.message('value', QuantityMessage),
  3: field.message('averageValue', QuantityMessage),
  4: field.int32('averageUtilization', KEEP_ZERO),
});

export const MetricValueStatusMessage = message(`${AUTOSCALING_V2}.MetricValueStatus`, {
  1: field.message('value', QuantityMessage),
  2: field.message('averageValue', QuantityMessage),
  3: field.int32('averageUtilization', KEEP_ZERO),
});

// Spec and status sources differ only in `target` versus `current` (and one field order).
const sources = (suffix: 'Source' | 'Status', value: MessageType) => {
  const valueField = (n: number) => ({ [n]: field.message(suffix === 'Source' ? 'target' : 'current', value) });
  return {
    resource: message(`${AUTOSCALING_V2}.ResourceMetric${suffix}`, { 1: field.string('name', KEEP_ZERO), ...valueField(2) }),
    containerResource: message(`${AUTOSCALING_V2}.ContainerResourceMetric${suffix}`, {
      1: field.string('name', KEEP_ZERO),
      ...valueField(2),
      3: field.string('container', KEEP_ZERO),
    }),
    pods: message(`${AUTOSCALING_V2}.PodsMetric${suffix}`, { 1: field.message('metric', MetricIdentifierMessage), ...valueField(2) }),
    external: message(`${AUTOSCALING_V2}.ExternalMetric${suffix}`, { 1: field.message('metric', MetricIdentifierMessage), ...valueField(2) }),
    object:
      suffix === 'Source'
        ? message(`${AUTOSCALING_V2}.ObjectMetricSource`, {
            1: field.message('describedObject', CrossVersionObjectReferenceMessage),
            ...valueField(2),
            3: field.message('metric', MetricIdentifierMessage),
          })
        : message(`${AUTOSCALING_V2}.ObjectMetricStatus`, {
            1: field.message('metric', MetricIdentifierMessage),
            ...valueField(2),
            3: field.message('describedObject', CrossVersionObjectReferenceMessage),
          }),
  };
};

const metricMessage = (name: string, of: ReturnType<typeof sources>) =>
  message(`${AUTOSCALING_V2}.${name}`, {
    1: field.string('type', KEEP_ZERO),
    2: field.message('object', of.object),
    3: field.message('pods', of.pods),
    4: field.message('resource', of.resource),
    5: field.message('external', of.external),
    7: field.message('containerResource', of.containerResource),
  });

export const MetricSpecMessage = metricMessage('MetricSpec', sources('Source', MetricTargetMessage));
export const MetricStatusMessage = metricMessage('MetricStatus', sources('Status', MetricValueStatusMessage));
