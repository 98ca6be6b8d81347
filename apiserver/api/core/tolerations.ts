/** Taint/toleration matching (Kubernetes' v1helper ToleratesTaint), shared by the scheduler
 * and the node lifecycle controller's taint-based eviction. */

/** TolerationLike / TaintLike are the read-only shapes the matcher needs (cache objects fit). */
export interface TolerationLike {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
}

export interface TaintLike {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

/** toleratesTaint: the effects agree (an empty toleration effect matches every effect), and
 * either the toleration is `Exists` (an empty key then matches every key) or key and value are
 * equal (`Equal`, the default operator). */
export function toleratesTaint(toleration: TolerationLike, taint: TaintLike): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  if (toleration.operator === 'Exists') return true;
  return (toleration.value ?? '') === (taint.value ?? '');
}
