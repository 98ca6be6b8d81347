/**
 * DefaultIngressClass, as kube-apiserver's plugin: a new Ingress that names no class (neither
 * spec.ingressClassName nor the legacy kubernetes.io/ingress.class annotation) gets the
 * default IngressClass, the newest when several are marked default.
 */
import type { Ingress } from '../../api/networking/ingress.js';
import type { IngressClass } from '../../api/networking/ingress-class.js';
import type { AdmissionPlugin } from '../plugin.js';
import { newestDefaultClass } from './default-class.js';

const LEGACY_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const DEFAULT_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';

export const defaultIngressClass: AdmissionPlugin = {
  name: 'DefaultIngressClass',
  handles: (operation, def, subresource) => operation === 'CREATE' && subresource === '' && def.storage.resource === 'ingresses.networking.k8s.io',
  admit(ctx, { object }) {
    const ingress = object as unknown as Ingress;
    if (!ingress.spec || ingress.spec.ingressClassName !== undefined || ingress.metadata.annotations?.[LEGACY_CLASS_ANNOTATION] !== undefined) return;
    const isDefault = (c: IngressClass) => c.metadata.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true';
    const chosen = newestDefaultClass<IngressClass>(ctx, 'ingressclasses.networking.k8s.io', isDefault);
    if (chosen?.metadata.name) ingress.spec.ingressClassName = chosen.metadata.name;
  },
};
