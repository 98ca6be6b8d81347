/**
 * FieldSet: a set of field paths, stored as a trie (structured-merge-diff's fieldpath.Set).
 * A path is in the set when its last element is a member at the node its prefix leads to;
 * a prefix alone (a child node) does not make the parent a member.
 *
 * Invariant: no child node is empty. Sets are mutable only through insert(),
 * removeAtOrBelow() and keepAtOrBelow(); the set operations return new sets and share
 * nothing with their inputs.
 */
import { comparePathElements, type Path, type PathElement, serializePathElement } from './path-element.js';

interface Child {
  readonly element: PathElement;
  readonly set: FieldSet;
}

/** FieldSetEntry is one element of a node, in FieldsV1 order: a member, a child, or both. */
export interface FieldSetEntry {
  element: PathElement;
  isMember: boolean;
  child: FieldSet | undefined;
}

export class FieldSet {
  /** Members at this node, keyed by their serialized element. */
  private readonly members = new Map<string, PathElement>();
  /** Sub-tries, keyed by their serialized element; never empty. */
  private readonly children = new Map<string, Child>();

  /** of builds a set holding `paths`. */
  static of(...paths: Path[]): FieldSet {
    const set = new FieldSet();
    for (const path of paths) set.insert(path);
    return set;
  }

  /** insert adds `path` (the empty path is ignored: the root is never a member). */
  insert(path: Path): this {
    if (path.length === 0) return this;
    let node: FieldSet = this;
    for (const element of path.slice(0, -1)) node = node.childOrCreate(element);
    const last = path[path.length - 1]!;
    node.members.set(serializePathElement(last), last);
    return this;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    const node = this.descend(path.slice(0, -1));
    return node?.members.has(serializePathElement(path[path.length - 1]!)) ?? false;
  }

  /** hasAtOrBelow reports whether `path` or any path under it is in the set. */
  hasAtOrBelow(path: Path): boolean {
    if (this.has(path)) return true;
    return path.length > 0 && this.descend(path) !== undefined;
  }

  /** removeAtOrBelow drops `path` and every path under it, in place. */
  removeAtOrBelow(path: Path): this {
    if (path.length === 0) {
      this.members.clear();
      this.children.clear();
      return this;
    }
    const [first, ...rest] = path;
    const key = serializePathElement(first!);
    if (rest.length === 0) {
      this.members.delete(key);
      this.children.delete(key);
      return this;
    }
    const child = this.children.get(key);
    if (child?.set.removeAtOrBelow(rest).isEmpty()) this.children.delete(key);
    return this;
  }

  /** keepAtOrBelow drops every path that is not `path` or under it, in place. */
  keepAtOrBelow(path: Path): this {
    if (path.length === 0) return this;
    const [first, ...rest] = path;
    const key = serializePathElement(first!);
    const member = rest.length === 0 ? this.members.get(key) : undefined;
    const child = this.children.get(key);
    this.members.clear();
    this.children.clear();
    if (member) this.members.set(key, member);
    if (child && !child.set.keepAtOrBelow(rest).isEmpty()) this.children.set(key, child);
    return this;
  }

  /** child is the subset below `element` (paths relative to it), if any. */
  child(element: PathElement): FieldSet | undefined {
    return this.children.get(serializePathElement(element))?.set;
  }

  isEmpty(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  union(other: FieldSet): FieldSet {
    const out = this.clone();
    for (const [key, element] of other.members) out.members.set(key, element);
    for (const [key, { element, set }] of other.children) {
      const mine = out.children.get(key);
      out.children.set(key, { element, set: mine ? mine.set.union(set) : set.clone() });
    }
    return out;
  }

  /** difference keeps the paths not in `other`. */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [key, element] of this.members) if (!other.members.has(key)) out.members.set(key, element);
    for (const [key, { element, set }] of this.children) {
      const theirs = other.children.get(key);
      const rest = theirs ? set.difference(theirs.set) : set.clone();
      if (!rest.isEmpty()) out.children.set(key, { element, set: rest });
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [key, element] of this.members) if (other.members.has(key)) out.members.set(key, element);
    for (const [key, { element, set }] of this.children) {
      const theirs = other.children.get(key);
      if (!theirs) continue;
      const both = set.intersection(theirs.set);
      if (!both.isEmpty()) out.children.set(key, { element, set: both });
    }
    return out;
  }

  equals(other: FieldSet): boolean {
    return this.difference(other).isEmpty() && other.difference(this).isEmpty();
  }

  clone(): FieldSet {
    const out = new FieldSet();
    for (const [key, element] of this.members) out.members.set(key, element);
    for (const [key, { element, set }] of this.children) out.children.set(key, { element, set: set.clone() });
    return out;
  }

  /** entries lists this node's elements in FieldsV1 order. */
  entries(): FieldSetEntry[] {
    const byKey = new Map<string, FieldSetEntry>();
    for (const [key, element] of this.members) byKey.set(key, { element, isMember: true, child: undefined });
    for (const [key, { element, set }] of this.children) {
      const entry = byKey.get(key);
      if (entry) entry.child = set;
      else byKey.set(key, { element, isMember: false, child: set });
    }
    return [...byKey.values()].sort((a, b) => comparePathElements(a.element, b.element));
  }

  /** paths lists every path in the set as Kubernetes iterates them: a node's members
   * first, then its children's paths, each in element order. */
  paths(): Path[] {
    const out: Path[] = [];
    this.collectPaths([], out);
    return out;
  }

  /** collectPaths appends every path below this node to `out`, each prefixed by `prefix`;
   * a path is copied once, at its end, so a deep chain costs its length, not its square. */
  private collectPaths(prefix: PathElement[], out: Path[]): void {
    const entries = this.entries();
    for (const { element, isMember } of entries) if (isMember) out.push([...prefix, element]);
    for (const { element, child } of entries) {
      if (!child) continue;
      prefix.push(element);
      child.collectPaths(prefix, out);
      prefix.pop();
    }
  }

  private descend(path: Path): FieldSet | undefined {
    let node: FieldSet | undefined = this;
    for (const element of path) node = node?.children.get(serializePathElement(element))?.set;
    return node;
  }

  private childOrCreate(element: PathElement): FieldSet {
    const key = serializePathElement(element);
    let child = this.children.get(key);
    if (!child) this.children.set(key, (child = { element, set: new FieldSet() }));
    return child.set;
  }
}
