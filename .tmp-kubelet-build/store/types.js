/**
 * The contracts of kubesim's versioned store. See docs/architecture.md.
 *
 * The store is deliberately synchronous: better-sqlite3 is synchronous and only the
 * API server process opens the database, so "check the revision, then write" happens
 * inside one transaction with no `await` in between, and a watch can be registered in
 * the same tick as the read that precedes it (no gap, no duplicate).
 */
/** StoreEventTypes lists the kinds of committed change, in Kubernetes watch spelling. */
export const StoreEventTypes = ['ADDED', 'MODIFIED', 'DELETED'];
//# sourceMappingURL=types.js.map