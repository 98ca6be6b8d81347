/**
 * policy/v1 Eviction: the body of POST pods/{name}/eviction, a pod delete that respects the
 * PodDisruptionBudgets selecting the pod. Not a stored kind: only the request shape.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';

export const EvictionSchema = z
  .object({
    ...typeMetaFields('policy/v1', 'Eviction'),
    deleteOptions: z.record(z.string(), z.unknown()).optional().describe('DeleteOptions may be provided.'),
  })
  .meta({ id: 'io.k8s.api.policy.v1.Eviction', description: 'Eviction evicts a pod from its node subject to certain policies and safety constraints.' });

export type Eviction = z.infer<typeof EvictionSchema>;
