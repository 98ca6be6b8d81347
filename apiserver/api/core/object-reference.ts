/** core/v1 ObjectReference and LocalObjectReference: pointers to other objects. */
import { z } from 'zod';
import { atomicStruct } from '../patch-meta.js';
import { K8S_CORE } from './schema-helpers.js';

export const ObjectReferenceSchema = z
  .object({
    kind: z.string().optional().describe('Kind of the referent.'),
    namespace: z.string().optional().describe('Namespace of the referent; empty for cluster-scoped objects.'),
    name: z.string().optional().describe('Name of the referent.'),
    uid: z.string().optional().describe('UID of the referent.'),
    apiVersion: z.string().optional().describe('API version of the referent.'),
    resourceVersion: z.string().optional().describe('The resourceVersion of the referent this reference was made against.'),
    fieldPath: z.string().optional().describe('A part of the referent instead of the whole object, e.g. spec.containers{web} for one container of a pod.'),
  })
  .meta({
    id: `${K8S_CORE}.ObjectReference`,
    description: 'ObjectReference points at another API object, possibly at a field inside it.',
    ...atomicStruct,
  });

export type ObjectReference = z.infer<typeof ObjectReferenceSchema>;

export const LocalObjectReferenceSchema = z
  .object({ name: z.string().optional().describe('Name of the referent, in the same namespace.') })
  .meta({ id: `${K8S_CORE}.LocalObjectReference`, description: 'LocalObjectReference names an object in the same namespace.', ...atomicStruct });

export type LocalObjectReference = z.infer<typeof LocalObjectReferenceSchema>;
