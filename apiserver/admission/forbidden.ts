/**
 * admissionForbidden is kube's admission.NewForbidden: a 403 naming the addressed object. The
 * name is the request's, else the body's, else its generateName (a generated name is drawn
 * after admission), as kube's extractResourceName does.
 */
import { ApiError } from '../api/api-error.js';
import { goQuote } from '../api/machinery/go-quote.js';
import type { AdmissionAttributes } from './plugin.js';

export function admissionForbidden(attributes: AdmissionAttributes, message: string): ApiError {
  const { def } = attributes;
  const metadata = attributes.object?.metadata;
  const name = attributes.name || metadata?.name || metadata?.generateName || '';
  const qualified = def.group ? `${def.plural}.${def.group}` : def.plural;
  const subject = name ? `${qualified} ${goQuote(name)}` : qualified;
  return new ApiError('Forbidden', 403, `${subject} is forbidden: ${message}`, {
    ...(name ? { name } : {}),
    ...(def.group ? { group: def.group } : {}),
    kind: def.plural,
  });
}
