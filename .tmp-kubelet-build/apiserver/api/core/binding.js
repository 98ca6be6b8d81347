/** core/v1 Binding: the body of POST pods/{name}/binding, which the scheduler uses to assign
 * a pod to a node. Served by a dedicated handler, so it has no ResourceDefinition. */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { ObjectReferenceSchema } from './object-reference.js';
import { K8S_CORE } from './schema-helpers.js';
export const BindingSchema = z
    .object({
    ...typeMetaFields('v1', 'Binding'),
    target: ObjectReferenceSchema.describe('The object to bind to; for pods a Node (kind Node, name of the node).'),
})
    .meta({ id: `${K8S_CORE}.Binding`, description: 'Binding ties one object to another, e.g. a pod to the node the scheduler chose.' });
//# sourceMappingURL=binding.js.map