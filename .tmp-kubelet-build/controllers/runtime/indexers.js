/** OWNER_UID_INDEX is the conventional name for indexByOwnerUid. */
export const OWNER_UID_INDEX = 'ownerUid';
/** NODE_NAME_INDEX is the conventional name for indexByNodeName. */
export const NODE_NAME_INDEX = 'nodeName';
/** indexByOwnerUid files an object under the uid of every ownerReference it has (none when it
 * has no owner), so a controller finds an owner's dependents with byIndex(OWNER_UID_INDEX, uid). */
export function indexByOwnerUid(object) {
    return (object.metadata.ownerReferences ?? []).map((reference) => reference.uid).filter((uid) => uid !== '');
}
/** indexByNodeName files an object (a Pod) under spec.nodeName; unscheduled pods (no or empty
 * nodeName) are filed under nothing. */
export function indexByNodeName(object) {
    const spec = object['spec'];
    return typeof spec?.nodeName === 'string' && spec.nodeName !== '' ? [spec.nodeName] : [];
}
//# sourceMappingURL=indexers.js.map