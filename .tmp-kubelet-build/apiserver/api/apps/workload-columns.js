import { column } from '../printing.js';
const containersOf = (w) => w.spec?.template?.spec?.containers ?? [];
/** workloadWideColumns returns the Containers, Images and Selector columns; `selector`
 * renders the selector cell (Deployments and ReplicaSets word an empty one differently). */
export function workloadWideColumns(selector, selectorDescription) {
    return [
        column('Containers', (w) => containersOf(w).map((c) => c.name).join(','), {
            wide: true,
            description: 'Names of each container in the template.',
        }),
        column('Images', (w) => containersOf(w).map((c) => c.image ?? '').join(','), {
            wide: true,
            description: 'Images referenced by each container in the template.',
        }),
        column('Selector', (w) => selector(w.spec?.selector), { wide: true, description: selectorDescription }),
    ];
}
//# sourceMappingURL=workload-columns.js.map