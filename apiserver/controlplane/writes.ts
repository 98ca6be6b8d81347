/**
 * How the API server's own loops read and write objects: through the registry's ordinary
 * create/update/delete flows (defaults, validation, managedFields as `kube-apiserver`, watch
 * events), the way kube-apiserver's controllers use its loopback client. Writes that change
 * nothing are no-ops (updateObject keeps the resourceVersion and emits no event), so a loop
 * may simply write what it wants on every event.
 */
import { isNotFound as isStoreNotFound } from '../../store/index.js';
import { isNotFound } from '../api/api-error.js';
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { createUpdateTracker } from '../fieldmanager/index.js';
import { asKube, objectRef, type RegistryContext } from '../registry/context.js';
import { createObject } from '../registry/create.js';
import { deleteObject } from '../registry/delete.js';
import { decodeObject } from '../registry/object-codec.js';
import { type UpdateScope, updateObject } from '../registry/update.js';

/** The field manager of the API server's own writes, as kube-apiserver records them. */
const MANAGER = 'kube-apiserver';

/** KindRef names a served kind by apiVersion and kind. */
export interface KindRef {
  apiVersion: string;
  kind: string;
}

export class ObjectWriter {
  constructor(readonly ctx: RegistryContext) {}

  private def(ref: KindRef): ResourceDefinition {
    const def = this.ctx.registry.findByKind(ref.apiVersion, ref.kind);
    if (!def) throw new Error(`control plane: ${ref.apiVersion} ${ref.kind} is not served`);
    return def;
  }

  /** read returns the stored object, or undefined. */
  read<T = KubeObject>(ref: KindRef, namespace: string, name: string): T | undefined {
    try {
      return asKube(this.ctx.store.get(objectRef({ def: this.def(ref), namespace, name }))) as T;
    } catch (err) {
      if (isStoreNotFound(err)) return undefined;
      throw err;
    }
  }

  /** list returns every stored object of the kind and the revision the list reflects. */
  list<T = KubeObject>(ref: KindRef): { items: T[]; revision: number } {
    const result = this.ctx.store.list({ resource: this.def(ref).storage.resource });
    return { items: result.items as unknown as T[], revision: result.revision };
  }

  /** create stores `body` (without apiVersion and kind), decoded as a client's would be; one
   * that exists by then is fine. */
  create(
    ref: KindRef,
    namespace: string,
    body: {
      metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] };
    } & Record<string, unknown>,
  ): void {
    const def = this.def(ref);
    const object = decodeObject(def, { apiVersion: ref.apiVersion, kind: ref.kind, ...body }, { fieldValidation: 'Strict', warnings: [] });
    try {
      createObject(this.ctx, { def, namespace }, object, { dryRun: false, fieldTracker: this.tracker(def, 'main') });
    } catch (err) {
      // Another API server on the same store made it first (AlreadyExists, or an allocation of
      // its own, such as the `kubernetes` Service's cluster IP, taken): its watch event brings
      // the object to this loop's next reconcile.
      if (this.read(ref, namespace, body.metadata.name) === undefined) throw err;
    }
  }

  /** update applies `mutate` to the current object (scope 'main' or 'status'). */
  update(ref: KindRef, namespace: string, name: string, scope: Extract<UpdateScope, 'main' | 'status'>, mutate: (object: KubeObject) => void): void {
    const def = this.def(ref);
    updateObject(
      this.ctx,
      { def, namespace, name },
      {
        scope,
        dryRun: false,
        fieldTracker: this.tracker(def, scope),
        computeNext: (current) => {
          mutate(current);
          return current;
        },
      },
    );
  }

  /** remove deletes the object; one already gone is fine. */
  remove(ref: KindRef, namespace: string, name: string): void {
    try {
      deleteObject(this.ctx, { def: this.def(ref), namespace, name }, { dryRun: false });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private tracker(def: ResourceDefinition, scope: 'main' | 'status') {
    return createUpdateTracker({ def, manager: MANAGER, subresource: scope === 'status' ? 'status' : '', now: this.ctx.now });
  }
}
