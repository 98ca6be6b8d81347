/**
 * autoscaling/v1 Scale: the view of a scalable object that the `/scale` subresource serves
 * (`kubectl scale`, the HPA). There is no Scale collection: the server builds a Scale from
 * the parent's ScaleSubresource paths and writes `spec.replicas` back into the parent.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';

const V1 = 'io.k8s.api.autoscaling.v1';

export const ScaleSpecSchema = z
  .object({
    replicas: z.int32().optional().describe('replicas is the desired number of instances for the scaled object.'),
  })
  .meta({ id: `${V1}.ScaleSpec`, description: 'ScaleSpec describes the attributes of a scale subresource.' });

export const ScaleStatusSchema = z
  .object({
    replicas: z.int32().optional().describe('replicas is the actual number of observed instances of the scaled object.'),
    selector: z
      .string()
      .optional()
      .describe(
        'selector is the label query over pods that should match the replicas count, in the query-parameter syntax (app=web,tier in (a,b)) so clients need not parse a structured selector.',
      ),
  })
  .meta({ id: `${V1}.ScaleStatus`, description: 'ScaleStatus represents the current status of a scale subresource.' });

export const ScaleSchema = z
  .object({
    ...typeMetaFields('autoscaling/v1', 'Scale'),
    spec: ScaleSpecSchema.optional().describe('spec is the desired replica count of the scaled object.'),
    status: ScaleStatusSchema.optional().describe('status is the observed replica count and pod selector. Read-only.'),
  })
  .meta({ id: `${V1}.Scale`, description: 'Scale represents a scaling request for a resource: its desired and observed replica counts.' });

export type Scale = z.infer<typeof ScaleSchema>;
