export const namespaceStrategy = {
    returnDeletedObject: true,
    canBeRemoved(namespace) {
        return (namespace.spec?.finalizers ?? []).length === 0;
    },
    onMarkedForDeletion(namespace) {
        const ns = namespace;
        ns.status = { ...ns.status, phase: 'Terminating' };
    },
};
//# sourceMappingURL=namespace-strategy.js.map