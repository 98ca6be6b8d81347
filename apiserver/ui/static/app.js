// @ts-check
// kubesim live view (docs/live-view.md): one ES module, no framework, no build step.
//
// The server pushes over one WebSocket (/kubesim/ui/ws): a snapshot, then batches of object
// changes and timeline entries, loop activity every 500 ms, the clock when it changes. This
// page keeps the objects in maps, marks what changed, and redraws only that, at most once per
// animation frame. Controls are ordinary API requests (Kubernetes API, clock, chaos,
// supervisor). `window.kubesimLiveView.stats` counts what arrived and what was drawn.

const API = {
  socket: '/kubesim/ui/ws',
  clock: '/apis/kubesim.io/v1alpha1/clock',
  chaos: '/apis/kubesim.io/v1alpha1/chaos',
  components: '/kubesim/v1/components',
};
/** @type {Kind[]} */
const KINDS = ['pods', 'nodes', 'deployments', 'replicasets', 'services', 'endpointslices', 'hpas'];
const TIMELINE_ROWS = 200;
const CAUSES_KEPT = 5000;
const RATE_WINDOW_MS = 2000;
const NODE_ACTIONS = new Set(['stop-node', 'start-node']);

// ─── Wire shapes ───────────────────────────────────────────────────────────────────
// What the page reads of the server's messages. The server's own types are the source:
// apiserver/ui/live-hub.ts (snapshot, batch), apiserver/ui/live-view.ts (activity, clock),
// apiserver/api/kubesim/history.ts (timeline items), controllers/runtime/activity.ts (loops),
// cli/supervisor.ts (components), apiserver/faults/types.ts (fault rules).

/** @typedef {'pods' | 'nodes' | 'deployments' | 'replicasets' | 'services' | 'endpointslices' | 'hpas'} Kind */
/** @typedef {'ADDED' | 'MODIFIED' | 'DELETED'} ChangeType */
/** @typedef {{ kind: string, name: string, uid: string, controller?: boolean }} OwnerReference */
/** @typedef {{ type: string, status: string, reason?: string }} Condition */
/** @typedef {{ averageUtilization?: number, averageValue?: string }} MetricValue */

/**
 * LiveObject is any object of the graph, as apiserver/ui/live-objects.ts slims it: the fields
 * the page reads of every kind, each optional where some kind lacks it.
 * @typedef {object} LiveObject
 * @property {{ name: string, namespace?: string, uid: string, generation?: number, deletionTimestamp?: string,
 *   labels?: Record<string, string>, ownerReferences?: OwnerReference[] }} metadata
 * @property {{ replicas?: number, nodeName?: string, unschedulable?: boolean, taints?: { key: string, effect?: string }[],
 *   type?: string, clusterIP?: string, selector?: Record<string, string>, ports?: { port: number, protocol?: string }[],
 *   scaleTargetRef?: { kind?: string, name?: string }, minReplicas?: number, maxReplicas?: number,
 *   metrics?: { type: string, resource?: { name?: string, target?: MetricValue } }[] }} [spec]
 * @property {{ phase?: string, conditions?: Condition[], replicas?: number, readyReplicas?: number, availableReplicas?: number,
 *   updatedReplicas?: number, observedGeneration?: number, containerStatuses?: { restartCount?: number }[],
 *   allocatable?: Record<string, string>, currentReplicas?: number, desiredReplicas?: number,
 *   currentMetrics?: { resource?: { current?: MetricValue } }[] }} [status]
 * @property {{ conditions?: { ready?: boolean } }[]} [endpoints] EndpointSlices' endpoints
 */

/** @typedef {{ nowMs: number, wallMs?: number, speed: number, paused: boolean }} Clock */

/**
 * Trigger is what queued a key (CauseTrigger in history.ts).
 * @typedef {{ kind: 'event', type: ChangeType, object: { kind?: string, namespace: string, name: string } }
 *   | { kind: 'requeue', reason?: string, origin?: Trigger } | { kind: 'stage', origin?: Trigger }
 *   | { kind: 'resync' } | { kind: 'heartbeat' }} Trigger
 */
/** @typedef {{ userAgent?: string, fieldManager?: string, user?: string, controller?: string, reconcileId?: string, trigger?: Trigger }} Actor */
/**
 * @typedef {object} HistoryItem one line of the timeline
 * @property {ChangeType} type
 * @property {string} resource
 * @property {string} [kind]
 * @property {string} namespace
 * @property {string} name
 * @property {string} time
 * @property {Actor | null} actor
 * @property {{ path: string, old?: unknown, new?: unknown }[]} diff
 */

/** @typedef {'success' | 'error' | 'requeueAfter' | 'terminal'} ReconcileOutcome */
/** @typedef {{ key: string, reconcileId: string, result: ReconcileOutcome, durationMs: number, finishedAtMs: number, error?: string }} LastReconcile */
/**
 * @typedef {{ name: string, queued: number, active: number, delayed: number,
 *   reconciles?: Record<ReconcileOutcome, number>, lastReconcile?: LastReconcile }} LoopActivity
 */
/** @typedef {{ component: string, loops: LoopActivity[] }} ComponentActivity */
/** @typedef {{ id: string, userAgent?: string, error?: { code: number }, latencyMs?: number, closeWatches?: boolean, expiresAt?: string }} FaultRule */
/** @typedef {{ type: 'activity', wallMs: number, busy: string[], items: ComponentActivity[], faults: FaultRule[] }} ActivityMessage */
/** @typedef {{ type: 'snapshot', objects: Partial<Record<Kind, LiveObject[]>>, history: HistoryItem[], clock: Clock | null }} SnapshotMessage */
/** @typedef {{ type: ChangeType, kind: Kind, object: LiveObject }} LiveChange */
/** @typedef {{ type: 'batch', changes: LiveChange[], history: HistoryItem[], storeEvents: number }} BatchMessage */
/** @typedef {SnapshotMessage | BatchMessage | ActivityMessage | { type: 'clock', clock: Clock | null }} Message */
/** @typedef {{ name: string, state: string, pid?: number, restarts?: number }} Component supervised process */
/** @typedef {{ action: string, target?: string, seconds?: number, latencyMs?: number, seed?: number }} ChaosRequest */

// The page's own shapes.

/** @typedef {{ kind: Kind, key: string }} Selected the selected object */
/**
 * Card is a workload box: a Deployment, a ReplicaSet, or a group of pods with another owner.
 * @typedef {object} Card
 * @property {string} id uid, or `group:…`
 * @property {Kind | 'groups'} kind
 * @property {string} name
 * @property {string | undefined} namespace
 * @property {string} key
 * @property {HTMLElement} root
 * @property {HTMLElement} head
 * @property {HTMLElement} body
 * @property {LiveObject | undefined} object
 */
/** @typedef {{ node: HTMLElement, card: Card }} Chip a pod's square in its card */
/** @typedef {{ id: string, name: string, process?: Component, loop?: LoopActivity }} LoopEntry */
/** @typedef {{ tr: HTMLTableRowElement, cells: HTMLTableCellElement[] }} LoopRow */
/** @typedef {[field: string, desired: unknown, actual: unknown]} Row desired vs actual */

// ─── State ──────────────────────────────────────────────────────────────────────────

const state = {
  /** kind → Map(namespace/name → object) */
  objects: /** @type {Record<Kind, Map<string, LiveObject>>} */ (Object.fromEntries(KINDS.map((kind) => [kind, new Map()]))),
  /** @type {Clock | null} */
  clock: null,
  /** @type {ActivityMessage | null} */
  activity: null,
  /** Loop totals over the last seconds, for reconciles/s.
   * @type {{ wallMs: number, totals: Map<string, number> }[]} */
  samples: [],
  /** Supervisor components (null until known; [] when the cluster has none).
   * @type {Component[] | null} */
  components: null,
  supervisorMessage: '',
  /** reconcileId → what queued the key (from the timeline's actors).
   * @type {Map<string, string>} */
  causes: new Map(),
  /** The selected object, or null.
   * @type {Selected | null} */
  selected: null,
};

const stats = {
  messages: 0,
  snapshots: 0,
  /** Store events the server folded into the batches received (before its coalescing). */
  storeEvents: 0,
  /** Object changes received (after the server's coalescing). */
  changesReceived: 0,
  /** Object updates drawn (after this page's per-frame coalescing). */
  changesRendered: 0,
  timelineReceived: 0,
  frames: 0,
  renderMsTotal: 0,
  lastRenderMs: 0,
  maxRenderMs: 0,
  /** @type {number[]} */
  frameIntervals: [],
};

/** What changed since the last frame. */
const dirty = {
  keys: /** @type {Record<Kind, Set<string>>} */ (Object.fromEntries(KINDS.map((kind) => [kind, new Set()]))),
  rebuild: false,
  loops: false,
  /** @type {HistoryItem[]} */
  timeline: [],
  timelineReset: false,
  clock: false,
};

let frameRequested = false;

function schedule() {
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(render);
}

// ─── Small helpers ──────────────────────────────────────────────────────────────────

/**
 * $ is the element of the page (index.html) with this id.
 * @param {string} id
 */
function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node;
}

/**
 * $of is $ for an element whose own properties are needed (an input's value, a table's bodies).
 * @template {Element} T
 * @param {string} id
 * @param {{ new (): T, prototype: T }} type
 * @returns {T}
 */
function $of(id, type) {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`#${id} is not a ${type.name}`);
  return node;
}

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {unknown} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = String(text);
  return node;
}

/**
 * @param {string} label
 * @param {() => unknown} onClick
 * @param {string} [className]
 */
function button(label, onClick, className = '') {
  const node = el('button', className, label);
  node.type = 'button';
  node.addEventListener('click', (event) => {
    event.stopPropagation();
    onClick();
  });
  return node;
}

/** @param {LiveObject} object */
const keyOf = (object) => `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
/** @param {LiveObject} object */
const controllerOf = (object) => {
  const owners = object.metadata.ownerReferences ?? [];
  return owners.find((owner) => owner.controller) ?? owners[0];
};
/** @param {LiveObject} object @param {string} type */
const condition = (object, type) => object.status?.conditions?.find((c) => c.type === type);
/** @param {LiveObject} object */
const isReady = (object) => condition(object, 'Ready')?.status === 'True';
/** @param {unknown} value */
const show = (value) => (value === undefined || value === null || value === '' ? '—' : String(value));

function clockNowMs() {
  const clock = state.clock;
  if (!clock) return Date.now();
  return clock.paused || clock.wallMs === undefined ? clock.nowMs : clock.nowMs + (Date.now() - clock.wallMs) * clock.speed;
}

/** @param {number} ms */
function timeOfDay(ms) {
  return new Date(ms).toISOString().slice(11, 23);
}

/** @param {number} ms */
function ago(ms) {
  const seconds = Math.max(0, (clockNowMs() - ms) / 1000);
  return seconds < 60 ? `${seconds.toFixed(1)} s ago` : `${Math.round(seconds / 60)} min ago`;
}

/** @param {string} text */
function say(text, isError = false) {
  const item = el('li', isError ? 'error' : '', `${new Date().toLocaleTimeString()} ${text}`);
  const list = $('messages');
  list.prepend(item);
  while (list.children.length > 30) list.lastElementChild?.remove();
}

/**
 * api sends a request and resolves with the decoded answer; rejects with the Status message.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<unknown>}
 */
async function api(method, path, body, contentType = 'application/json') {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  /** @type {RequestInit} */
  const init = { method, headers };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    headers['Content-Type'] = contentType;
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let answer;
  try {
    answer = text ? JSON.parse(text) : undefined;
  } catch {
    answer = undefined;
  }
  if (!response.ok) throw new Error(answer?.message ?? `HTTP ${response.status} ${text.slice(0, 200)}`);
  return answer;
}

/**
 * act runs a control's request and says how it went.
 * @param {string} what
 * @param {() => Promise<unknown>} request
 */
async function act(what, request) {
  try {
    const answer = await request();
    say(`${what}: done`);
    return answer;
  } catch (err) {
    say(`${what}: ${messageOf(err)}`, true);
    return undefined;
  }
}

/** @param {unknown} err */
function messageOf(err) {
  return err instanceof Error ? err.message : String(err);
}

// ─── The feed ───────────────────────────────────────────────────────────────────────

function connect() {
  const url = new URL(API.socket, location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(url);
  setConnection('connecting', 'connecting…');
  socket.addEventListener('open', () => setConnection('live', 'live'));
  socket.addEventListener('message', (event) => onMessage(JSON.parse(event.data)));
  socket.addEventListener('close', () => {
    setConnection('down', 'disconnected — reconnecting…');
    setTimeout(connect, 1000);
  });
}

/** @param {string} stateName @param {string} text */
function setConnection(stateName, text) {
  const node = $('connection');
  node.dataset.state = stateName;
  node.textContent = text;
}

/** @param {Message} message */
function onMessage(message) {
  stats.messages++;
  switch (message.type) {
    case 'snapshot':
      applySnapshot(message);
      break;
    case 'batch':
      applyBatch(message);
      break;
    case 'activity':
      state.activity = message;
      recordSample(message);
      dirty.loops = true;
      break;
    case 'clock':
      state.clock = message.clock;
      dirty.clock = true;
      break;
  }
  schedule();
}

/** @param {SnapshotMessage} message */
function applySnapshot(message) {
  stats.snapshots++;
  for (const kind of KINDS) {
    const map = state.objects[kind];
    map.clear();
    for (const object of message.objects[kind] ?? []) map.set(keyOf(object), object);
    dirty.keys[kind].clear();
  }
  dirty.rebuild = true;
  state.clock = message.clock;
  dirty.clock = true;
  for (const item of message.history) rememberCause(item);
  dirty.timeline = message.history.slice(-TIMELINE_ROWS);
  dirty.timelineReset = true;
}

/** @param {BatchMessage} message */
function applyBatch(message) {
  stats.storeEvents += message.storeEvents;
  stats.changesReceived += message.changes.length;
  stats.timelineReceived += message.history.length;
  for (const change of message.changes) {
    const key = keyOf(change.object);
    if (change.type === 'DELETED') state.objects[change.kind].delete(key);
    else state.objects[change.kind].set(key, change.object);
    dirty.keys[change.kind].add(key);
  }
  for (const item of message.history) rememberCause(item);
  dirty.timeline.push(...message.history);
  if (dirty.timeline.length > TIMELINE_ROWS) dirty.timeline.splice(0, dirty.timeline.length - TIMELINE_ROWS);
}

/** @param {HistoryItem} item */
function rememberCause(item) {
  const actor = item.actor;
  if (!actor?.reconcileId || !actor.trigger) return;
  state.causes.set(actor.reconcileId, describeTrigger(actor.trigger));
  const oldest = state.causes.keys().next().value;
  if (state.causes.size > CAUSES_KEPT && oldest !== undefined) state.causes.delete(oldest);
}

/**
 * @param {Trigger | undefined} trigger
 * @returns {string}
 */
function describeTrigger(trigger) {
  switch (trigger?.kind) {
    case 'event': {
      const o = trigger.object;
      return `${trigger.type} ${o.kind ?? ''} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`.replace(/ {2,}/g, ' ');
    }
    case 'requeue':
      return `requeue${trigger.reason ? ` (${trigger.reason})` : ''}${trigger.origin ? ` ← ${describeTrigger(trigger.origin)}` : ''}`;
    case 'stage':
      return `kubelet stage${trigger.origin ? ` ← ${describeTrigger(trigger.origin)}` : ''}`;
    case 'resync':
    case 'heartbeat':
      return trigger.kind;
    default:
      return '';
  }
}

// ─── Rendering ──────────────────────────────────────────────────────────────────────

function render() {
  frameRequested = false;
  const started = performance.now();
  let drawn = 0;
  if (dirty.rebuild) {
    drawn += rebuildGraph();
  } else {
    drawn += renderWorkloads();
    if (dirty.keys.nodes.size || dirty.keys.pods.size) renderNodes();
    if (dirty.keys.services.size || dirty.keys.endpointslices.size) renderServices();
    if (dirty.keys.hpas.size || dirty.keys.deployments.size) renderHpas();
  }
  const selectionTouched = state.selected && (dirty.rebuild || KINDS.some((kind) => dirty.keys[kind].size > 0));
  for (const kind of KINDS) dirty.keys[kind].clear();
  dirty.rebuild = false;
  if (selectionTouched) renderSelection();
  if (dirty.loops) renderLoops();
  if (dirty.timeline.length || dirty.timelineReset) renderTimeline();
  if (dirty.clock) renderClock();
  renderEdges();
  const ms = performance.now() - started;
  stats.frames++;
  stats.changesRendered += drawn;
  stats.renderMsTotal += ms;
  stats.lastRenderMs = ms;
  stats.maxRenderMs = Math.max(stats.maxRenderMs, ms);
}

// Workloads: cards keyed by uid (Deployments, ReplicaSets) or owner (other pods' groups),
// pod chips keyed by namespace/name. A card can exist before its object arrives (a pod
// names its ReplicaSet first); it goes when it has neither object nor children.

/** @type {Map<string, Card>} uid or group id → card */
const cards = new Map();
/** @type {Map<string, Chip>} namespace/name → pod chip */
const chips = new Map();

function rebuildGraph() {
  cards.clear();
  chips.clear();
  $('workloads').replaceChildren();
  for (const kind of /** @type {const} */ (['deployments', 'replicasets', 'pods'])) for (const key of state.objects[kind].keys()) dirty.keys[kind].add(key);
  const drawn = renderWorkloads();
  renderNodes();
  renderServices();
  renderHpas();
  return drawn;
}

function renderWorkloads() {
  /** @type {Set<Card>} */
  const touched = new Set();
  let drawn = 0;
  for (const key of dirty.keys.deployments) drawn += drawOwner('deployments', key, touched);
  for (const key of dirty.keys.replicasets) drawn += drawOwner('replicasets', key, touched);
  for (const key of dirty.keys.pods) {
    drawPod(key, touched);
    drawn++;
  }
  for (const card of touched) pruneCard(card);
  return drawn;
}

/**
 * @param {'deployments' | 'replicasets'} kind
 * @param {string} key
 * @param {Set<Card>} touched
 */
function drawOwner(kind, key, touched) {
  const object = state.objects[kind].get(key);
  const existing = [...cards.values()].find((card) => card.kind === kind && card.key === key && card.object);
  if (!object) {
    if (existing) {
      existing.object = undefined;
      touched.add(existing);
    }
    return 1;
  }
  // A card is keyed by its object's uid: a same-named object with a new uid (deleted and
  // created again) gets a new card, and the old one loses its object.
  if (existing && existing.id !== object.metadata.uid) {
    existing.object = undefined;
    touched.add(existing);
  }
  const card =
    kind === 'deployments'
      ? deploymentCard(object.metadata.uid, object.metadata.namespace, object.metadata.name)
      : replicaSetCard(object.metadata.uid, object.metadata.namespace, object.metadata.name);
  card.object = object;
  card.key = key;
  if (kind === 'replicasets') placeReplicaSet(card, object);
  drawCardHead(card);
  touched.add(card);
  return 1;
}

/**
 * @param {string} id
 * @param {Card['kind']} kind
 * @param {string | undefined} namespace
 * @param {string} name
 * @param {HTMLElement} parent
 * @returns {Card}
 */
function makeCard(id, kind, namespace, name, parent) {
  const root = el('div', `card ${kind}`);
  root.dataset.kind = kind;
  root.dataset.name = name;
  root.dataset.namespace = namespace ?? '';
  root.dataset.select = kind;
  root.dataset.key = `${namespace ?? ''}/${name}`;
  const head = el('div', 'card-head');
  const body = el('div', kind === 'deployments' ? 'children' : 'pods');
  root.append(head, body);
  parent.append(root);
  /** @type {Card} */
  const card = { id, kind, name, namespace, key: root.dataset.key, root, head, body, object: undefined };
  cards.set(id, card);
  drawCardHead(card);
  return card;
}

/** @param {string} uid @param {string | undefined} namespace @param {string} name */
function deploymentCard(uid, namespace, name) {
  return cards.get(uid) ?? makeCard(uid, 'deployments', namespace, name, $('workloads'));
}

/** @param {string} uid @param {string | undefined} namespace @param {string} name */
function replicaSetCard(uid, namespace, name) {
  return cards.get(uid) ?? makeCard(uid, 'replicasets', namespace, name, $('workloads'));
}

/** @param {OwnerReference | undefined} owner @param {string | undefined} namespace */
function groupCard(owner, namespace) {
  const id = owner ? `group:${owner.kind}/${namespace}/${owner.name}` : `group:none/${namespace}`;
  return cards.get(id) ?? makeCard(id, 'groups', namespace, owner ? `${owner.kind} ${owner.name}` : `pods without an owner (${namespace})`, $('workloads'));
}

/** @param {Card} card @param {LiveObject} rs */
function placeReplicaSet(card, rs) {
  const owner = controllerOf(rs);
  const parent = owner?.kind === 'Deployment' ? deploymentCard(owner.uid, rs.metadata.namespace, owner.name).body : $('workloads');
  if (card.root.parentElement !== parent) parent.append(card.root);
}

/** @param {Card} card */
function drawCardHead(card) {
  const object = card.object;
  const head = card.head;
  head.replaceChildren();
  /** @type {Partial<Record<Card['kind'], string>>} */
  const labels = { deployments: 'Deployment', replicasets: 'ReplicaSet' };
  const label = labels[card.kind];
  if (label) head.append(el('span', 'kind', label));
  head.append(el('span', 'name', card.kind === 'groups' ? card.name : `${card.namespace}/${card.name}`));
  if (card.kind === 'groups') {
    head.append(el('span', 'count', `${card.body.children.length} pod(s)`));
    return;
  }
  if (!object) {
    head.append(el('span', 'count', 'not seen yet'));
    card.root.classList.add('unseen');
    return;
  }
  card.root.classList.remove('unseen');
  const desired = object.spec?.replicas ?? 1;
  const ready = object.status?.readyReplicas ?? 0;
  head.append(el('span', 'count', `${ready}/${desired} ready`));
  card.root.classList.toggle('converged', ready === desired && (object.status?.replicas ?? 0) === desired);
  card.root.classList.toggle('terminating', Boolean(object.metadata.deletionTimestamp));
}

/** @param {string} key @param {Set<Card>} touched */
function drawPod(key, touched) {
  const pod = state.objects.pods.get(key);
  let chip = chips.get(key);
  if (!pod) {
    if (chip) {
      touched.add(chip.card);
      chip.node.remove();
      chips.delete(key);
    }
    return;
  }
  const owner = controllerOf(pod);
  const card = owner?.kind === 'ReplicaSet' ? replicaSetCard(owner.uid, pod.metadata.namespace, owner.name) : groupCard(owner, pod.metadata.namespace);
  if (!chip) {
    const node = el('span', 'pod');
    node.dataset.select = 'pods';
    node.dataset.kind = 'pods';
    chip = { node, card };
    chips.set(key, chip);
  }
  if (chip.card !== card) touched.add(chip.card);
  chip.card = card;
  if (chip.node.parentElement !== card.body) card.body.append(chip.node);
  touched.add(card);
  const node = chip.node;
  node.dataset.key = key;
  node.dataset.name = pod.metadata.name;
  node.dataset.node = pod.spec?.nodeName ?? '';
  node.className = `pod ${podClass(pod)}${isSelected('pods', key) ? ' selected' : ''}`;
  node.title = `${pod.metadata.name}\n${pod.status?.phase ?? 'Pending'}${isReady(pod) ? ', ready' : ''}${pod.metadata.deletionTimestamp ? ', terminating' : ''}\nnode: ${pod.spec?.nodeName ?? '(not scheduled)'}`;
}

/** @param {LiveObject} pod */
function podClass(pod) {
  if (pod.metadata.deletionTimestamp) return 'terminating';
  const phase = pod.status?.phase;
  if (phase === 'Succeeded') return 'phase-succeeded';
  if (phase === 'Failed') return 'phase-failed';
  if (phase === 'Running') return isReady(pod) ? 'phase-ready' : 'phase-running';
  return pod.spec?.nodeName ? 'phase-scheduled' : 'phase-pending';
}

/** pruneCard redraws a touched card, and removes it once it has neither object nor children.
 * @param {Card} card */
function pruneCard(card) {
  if (!cards.has(card.id)) return;
  if (!card.object && card.body.children.length === 0) {
    card.root.remove();
    cards.delete(card.id);
    return;
  }
  if (card.kind === 'groups') drawCardHead(card);
}

// Nodes, Services, autoscalers: few objects, redrawn whole when one of them changes.

function renderNodes() {
  /** @type {Map<string, number>} */
  const podsPerNode = new Map();
  for (const pod of state.objects.pods.values()) {
    const name = pod.spec?.nodeName;
    if (name) podsPerNode.set(name, (podsPerNode.get(name) ?? 0) + 1);
  }
  const container = $('nodes');
  const existing = new Map([...container.children].filter((node) => node instanceof HTMLElement).map((node) => [node.dataset.name, node]));
  const names = [...state.objects.nodes.values()].map((n) => n.metadata.name).sort();
  for (const name of names) {
    const node = state.objects.nodes.get(`/${name}`);
    if (!node) continue;
    let card = existing.get(name);
    existing.delete(name);
    if (!card) {
      card = el('div', 'card nodes');
      card.dataset.select = 'nodes';
      card.dataset.kind = 'nodes';
      card.dataset.name = name;
      card.dataset.key = `/${name}`;
    }
    container.append(card);
    const ready = condition(node, 'Ready')?.status ?? 'Unknown';
    card.className = `card nodes ready-${ready.toLowerCase()}${node.spec?.unschedulable ? ' cordoned' : ''}${isSelected('nodes', `/${name}`) ? ' selected' : ''}`;
    const count = podsPerNode.get(name) ?? 0;
    const head = el('div', 'card-head');
    head.append(el('span', 'kind', 'Node'), el('span', 'name', name), el('span', 'count', ready === 'True' ? 'Ready' : `Ready=${ready}`));
    const bar = el('div', 'bar');
    bar.style.setProperty('--fill', String(Math.min(1, count / 110)));
    card.replaceChildren(
      head,
      el(
        'div',
        'detail',
        `${count} pod(s)${node.spec?.taints?.length ? ` · taints: ${node.spec.taints.map((t) => t.key.replace(/^node\.kubernetes\.io\//, '')).join(', ')}` : ''}`,
      ),
      bar,
    );
  }
  for (const stale of existing.values()) stale.remove();
}

function renderServices() {
  const container = $('services');
  const slices = [...state.objects.endpointslices.values()];
  /** @type {HTMLElement[]} */
  const cardsOut = [];
  for (const [key, service] of [...state.objects.services].sort(([a], [b]) => a.localeCompare(b))) {
    const card = el('div', `card services${isSelected('services', key) ? ' selected' : ''}`);
    Object.assign(card.dataset, { select: 'services', kind: 'services', key, name: service.metadata.name });
    const own = slices.filter(
      (s) => s.metadata.namespace === service.metadata.namespace && s.metadata.labels?.['kubernetes.io/service-name'] === service.metadata.name,
    );
    const endpoints = own.flatMap((s) => s.endpoints ?? []);
    const ready = endpoints.filter((e) => e.conditions?.ready !== false).length;
    const head = el('div', 'card-head');
    head.append(el('span', 'kind', 'Service'), el('span', 'name', key), el('span', 'count', `${ready}/${endpoints.length} endpoints ready`));
    const body = el('div', 'children');
    for (const slice of own) {
      const sliceEndpoints = slice.endpoints ?? [];
      const line = el(
        'div',
        'card slice',
        `EndpointSlice ${slice.metadata.name}: ${sliceEndpoints.filter((e) => e.conditions?.ready !== false).length}/${sliceEndpoints.length} ready`,
      );
      body.append(line);
    }
    card.append(
      head,
      el('div', 'detail', `${service.spec?.type ?? 'ClusterIP'} ${service.spec?.clusterIP ?? ''} · selector ${formatSelector(service.spec?.selector)}`),
      body,
    );
    card.classList.toggle('converged', endpoints.length > 0 && ready === endpoints.length);
    cardsOut.push(card);
  }
  container.replaceChildren(...cardsOut);
}

function renderHpas() {
  const container = $('hpas');
  /** @type {HTMLElement[]} */
  const cardsOut = [];
  for (const [key, hpa] of [...state.objects.hpas].sort(([a], [b]) => a.localeCompare(b))) {
    const card = el('div', `card hpas${isSelected('hpas', key) ? ' selected' : ''}`);
    Object.assign(card.dataset, { select: 'hpas', kind: 'hpas', key, name: hpa.metadata.name });
    /** @type {{ kind?: string, name?: string }} */
    const target = hpa.spec?.scaleTargetRef ?? {};
    const head = el('div', 'card-head');
    head.append(
      el('span', 'kind', 'HPA'),
      el('span', 'name', key),
      el('span', 'count', `${show(hpa.status?.currentReplicas)} → ${show(hpa.status?.desiredReplicas)} replicas`),
    );
    const detail = el(
      'div',
      'detail',
      `scales ${target.kind ?? '?'} ${target.name ?? '?'} between ${hpa.spec?.minReplicas ?? 1} and ${hpa.spec?.maxReplicas ?? '?'}`,
    );
    card.append(head, detail);
    card.classList.toggle('converged', hpa.status?.currentReplicas === hpa.status?.desiredReplicas);
    cardsOut.push(card);
  }
  container.replaceChildren(...cardsOut);
}

/** @param {Record<string, string> | undefined} selector */
function formatSelector(selector) {
  const entries = Object.entries(selector ?? {});
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(',') : '(none)';
}

// ─── Selection: desired vs actual, and what can be done to it ───────────────────────

/** @param {Kind} kind @param {string} key */
function isSelected(kind, key) {
  return state.selected?.kind === kind && state.selected.key === key;
}

/** @param {Kind} kind @param {string} key */
function select(kind, key) {
  const previous = state.selected;
  const selected = { kind, key };
  state.selected = selected;
  markSelected(previous, false);
  markSelected(selected, true);
  renderSelection(true);
  renderEdges();
}

/** @param {Selected | null} selection @param {boolean} on */
function markSelected(selection, on) {
  if (!selection) return;
  const escaped = CSS.escape(selection.key);
  for (const node of document.querySelectorAll(`[data-select="${selection.kind}"][data-key="${escaped}"]`)) node.classList.toggle('selected', on);
}

function renderSelection(fresh = false) {
  const panel = $('selection');
  const selection = state.selected;
  if (!selection) return;
  const object = state.objects[selection.kind].get(selection.key);
  if (fresh || panel.dataset.key !== `${selection.kind}:${selection.key}`) {
    panel.dataset.key = `${selection.kind}:${selection.key}`;
    panel.replaceChildren(el('h3'), el('table', 'desired'), actionsFor(selection));
  }
  const [title, table] = panel.children;
  title.textContent = `${KIND_LABEL[selection.kind]} ${selection.key.replace(/^\//, '')}${object ? '' : ' (gone)'}`;
  const rows = object ? DESIRED_VS_ACTUAL[selection.kind](object) : [];
  const header = el('tr');
  header.append(el('th', '', ''), el('th', '', 'desired'), el('th', '', 'actual'));
  const body = rows.map(([field, desired, actual]) => {
    const row = el('tr', desired !== undefined && String(desired) !== String(actual) && desired !== '—' ? 'differs' : '');
    row.append(el('th', '', field), el('td', '', show(desired)), el('td', '', show(actual)));
    return row;
  });
  table.replaceChildren(header, ...body);
}

const KIND_LABEL = {
  pods: 'Pod',
  nodes: 'Node',
  deployments: 'Deployment',
  replicasets: 'ReplicaSet',
  services: 'Service',
  endpointslices: 'EndpointSlice',
  hpas: 'HorizontalPodAutoscaler',
};

/**
 * @param {LiveObject} o
 * @returns {Row[]}
 */
const replicaRows = (o) => [
  ['replicas', o.spec?.replicas ?? 1, o.status?.replicas ?? 0],
  ['ready', o.spec?.replicas ?? 1, o.status?.readyReplicas ?? 0],
  ['available', o.spec?.replicas ?? 1, o.status?.availableReplicas ?? 0],
  ['generation observed', o.metadata.generation, o.status?.observedGeneration],
];

/** @type {Record<Kind, (o: LiveObject) => Row[]>} */
const DESIRED_VS_ACTUAL = {
  deployments: (o) => [...replicaRows(o), ['updated', o.spec?.replicas ?? 1, o.status?.updatedReplicas ?? 0], ...conditionRows(o)],
  replicasets: (o) => [...replicaRows(o), ['owner', undefined, controllerOf(o) ? `${controllerOf(o).kind} ${controllerOf(o).name}` : '(none)']],
  pods: (o) => [
    ['node', undefined, o.spec?.nodeName ?? '(not scheduled)'],
    ['phase', 'Running', o.status?.phase ?? 'Pending'],
    ['ready', 'True', condition(o, 'Ready')?.status ?? 'False'],
    ['restarts', 0, (o.status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0)],
    ['terminating', undefined, o.metadata.deletionTimestamp ? `since ${o.metadata.deletionTimestamp}` : 'no'],
    ['owner', undefined, controllerOf(o) ? `${controllerOf(o).kind} ${controllerOf(o).name}` : '(none)'],
  ],
  nodes: (o) => [
    ['Ready', 'True', condition(o, 'Ready')?.status ?? 'Unknown'],
    ['schedulable', 'true', String(!o.spec?.unschedulable)],
    ['taints', undefined, (o.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).join(', ') || '(none)'],
    ['pods', undefined, [...state.objects.pods.values()].filter((p) => p.spec?.nodeName === o.metadata.name).length],
    ['allocatable cpu / memory', undefined, `${o.status?.allocatable?.cpu ?? '?'} / ${o.status?.allocatable?.memory ?? '?'}`],
  ],
  services: (o) => {
    const slices = [...state.objects.endpointslices.values()].filter(
      (s) => s.metadata.namespace === o.metadata.namespace && s.metadata.labels?.['kubernetes.io/service-name'] === o.metadata.name,
    );
    const endpoints = slices.flatMap((s) => s.endpoints ?? []);
    const selected = selectedPods(o).filter(isReady).length;
    return [
      ['selector', undefined, formatSelector(o.spec?.selector)],
      ['ready endpoints', selected, endpoints.filter((e) => e.conditions?.ready !== false).length],
      ['EndpointSlices', undefined, slices.length],
      ['ports', undefined, (o.spec?.ports ?? []).map((p) => `${p.port}/${p.protocol ?? 'TCP'}`).join(', ')],
    ];
  },
  endpointslices: (o) => [['endpoints', undefined, (o.endpoints ?? []).length]],
  hpas: (o) => [
    ['replicas', o.status?.desiredReplicas, o.status?.currentReplicas],
    ['bounds', undefined, `${o.spec?.minReplicas ?? 1} … ${o.spec?.maxReplicas}`],
    ...(o.spec?.metrics ?? []).map(
      /** @returns {Row} */ (metric, i) => {
        const target = metric.resource?.target ?? {};
        const current = o.status?.currentMetrics?.[i]?.resource?.current ?? {};
        return [
          `${metric.resource?.name ?? metric.type} utilization`,
          target.averageUtilization !== undefined ? `${target.averageUtilization}%` : show(target.averageValue),
          current.averageUtilization !== undefined ? `${current.averageUtilization}%` : show(current.averageValue),
        ];
      },
    ),
    ...conditionRows(o),
  ],
};

/**
 * @param {LiveObject} object
 * @returns {Row[]}
 */
function conditionRows(object) {
  return (object.status?.conditions ?? []).map(
    /** @returns {Row} */ (c) => [`condition ${c.type}`, undefined, `${c.status}${c.reason ? ` (${c.reason})` : ''}`],
  );
}

/** @param {LiveObject} service */
function selectedPods(service) {
  const selector = Object.entries(service.spec?.selector ?? {});
  if (selector.length === 0) return [];
  return [...state.objects.pods.values()].filter(
    (p) => p.metadata.namespace === service.metadata.namespace && selector.every(([k, v]) => p.metadata.labels?.[k] === v),
  );
}

/** @param {Selected} selection */
function actionsFor({ kind, key }) {
  const box = el('div', 'actions');
  const [namespace, name] = key.split('/');
  if (kind === 'pods') {
    box.append(button('Delete pod', () => act(`delete pod ${name}`, () => api('DELETE', `/api/v1/namespaces/${namespace}/pods/${name}`)), 'danger delete-pod'));
  } else if (kind === 'deployments') {
    const input = el('input');
    input.type = 'number';
    input.min = '0';
    input.value = String(state.objects.deployments.get(key)?.spec?.replicas ?? 1);
    input.className = 'scale-replicas';
    const scale = () =>
      act(`scale deployment ${name} to ${input.value}`, () =>
        api(
          'PATCH',
          `/apis/apps/v1/namespaces/${namespace}/deployments/${name}/scale`,
          { spec: { replicas: Number(input.value) } },
          'application/merge-patch+json',
        ),
      );
    const label = el('label', '', 'replicas ');
    label.append(input);
    box.append(label, button('Scale', scale, 'scale'));
  } else if (kind === 'nodes') {
    box.append(
      button('Stop node', () => chaos({ action: 'stop-node', target: name }), 'danger stop-node'),
      button('Start node', () => chaos({ action: 'start-node', target: name }), 'start-node'),
    );
  }
  return box;
}

// ─── Edges: what the selected object is connected to outside its card ────────────────

/** @type {Element[]} */
let related = [];

function renderEdges() {
  const svg = $('edges');
  const graph = svg.parentElement;
  for (const node of related) node.classList.remove('related');
  related = [];
  const selection = state.selected;
  if (!selection) return;
  const from = document.querySelector(`[data-select="${selection.kind}"][data-key="${CSS.escape(selection.key)}"]`);
  related = relatedElements(selection);
  for (const node of related) node.classList.add('related');
  const lines = from ? related.slice(0, 200).map((node) => [from, node]) : [];
  if (!graph) return;
  const box = graph.getBoundingClientRect();
  svg.setAttribute('width', String(graph.scrollWidth));
  svg.setAttribute('height', String(graph.scrollHeight));
  /** @param {Element} node */
  const center = (node) => {
    const r = node.getBoundingClientRect();
    return [r.left - box.left + r.width / 2, r.top - box.top + r.height / 2];
  };
  svg.replaceChildren(
    ...lines.map(([a, b]) => {
      const [x1, y1] = center(a);
      const [x2, y2] = center(b);
      const line = document.createElementNS('http://www.w3.org/2000/svg', 'line');
      line.setAttribute('x1', String(x1));
      line.setAttribute('y1', String(y1));
      line.setAttribute('x2', String(x2));
      line.setAttribute('y2', String(y2));
      return line;
    }),
  );
}

/**
 * @param {Selected} selection
 * @returns {Element[]}
 */
function relatedElements({ kind, key }) {
  const object = state.objects[kind].get(key);
  if (!object) return [];
  /** @param {string} k @param {Kind} select */
  const byKey = (k, select) => document.querySelector(`[data-select="${select}"][data-key="${CSS.escape(k)}"]`);
  if (kind === 'pods') return [byKey(`/${object.spec?.nodeName}`, 'nodes')].filter((node) => node !== null);
  if (kind === 'nodes') return [...chips.values()].filter((chip) => chip.node.dataset.node === object.metadata.name).map((chip) => chip.node);
  if (kind === 'services')
    return selectedPods(object)
      .map((pod) => chips.get(keyOf(pod))?.node)
      .filter((node) => node !== undefined);
  if (kind === 'hpas') {
    const target = object.spec?.scaleTargetRef;
    return target?.kind === 'Deployment' ? [byKey(`${object.metadata.namespace}/${target.name}`, 'deployments')].filter((node) => node !== null) : [];
  }
  return [];
}

// ─── Loops ──────────────────────────────────────────────────────────────────────────

/** @type {Map<string, LoopRow>} */
const loopRows = new Map();

/** @param {ActivityMessage} activity */
function recordSample(activity) {
  /** @type {Map<string, number>} */
  const totals = new Map();
  for (const component of activity.items) {
    for (const loop of component.loops) totals.set(`${component.component}/${loop.name}`, sum(loop.reconciles));
  }
  state.samples.push({ wallMs: activity.wallMs, totals });
  while (state.samples.length > 2 && state.samples[1].wallMs <= activity.wallMs - RATE_WINDOW_MS) state.samples.shift();
}

/** @param {Record<string, number> | undefined} counts */
const sum = (counts) => Object.values(counts ?? {}).reduce((a, b) => a + b, 0);

/** @param {string} id */
function ratePerSecond(id) {
  const first = state.samples[0];
  const last = state.samples[state.samples.length - 1];
  if (!first || !last || first === last) return undefined;
  const seconds = (last.wallMs - first.wallMs) / 1000;
  return ((last.totals.get(id) ?? 0) - (first.totals.get(id) ?? 0)) / seconds;
}

/** belongsTo tells whether an activity report is a supervised component's: a process reports
 * under its own name (`replicaset-controller`, `kubelet-sim`, `scheduler`).
 * @param {string} reported
 * @param {string} name */
function belongsTo(reported, name) {
  return reported === name || reported === `kubesim-${name}` || reported.startsWith(`${name}-`);
}

function loopEntries() {
  const items = state.activity?.items ?? [];
  /** @type {Set<ComponentActivity>} */
  const claimed = new Set();
  /** @type {LoopEntry[]} */
  const entries = [];
  for (const component of state.components ?? []) {
    const reports = items.filter((item) => belongsTo(item.component, component.name));
    for (const report of reports) claimed.add(report);
    const loops = reports.flatMap((report) => report.loops.map((loop) => ({ reported: report.component, loop })));
    if (loops.length === 0) entries.push({ id: component.name, name: component.name, process: component });
    for (const { reported, loop } of loops) entries.push({ id: `${reported}/${loop.name}`, name: component.name, process: component, loop });
  }
  for (const report of items) {
    if (claimed.has(report)) continue;
    for (const loop of report.loops) entries.push({ id: `${report.component}/${loop.name}`, name: report.component, loop });
  }
  return entries;
}

function renderLoops() {
  dirty.loops = false;
  const body = $of('loops', HTMLTableElement).tBodies[0];
  const seen = new Set();
  for (const entry of loopEntries()) {
    seen.add(entry.id);
    let row = loopRows.get(entry.id);
    if (!row) {
      row = makeLoopRow(entry);
      loopRows.set(entry.id, row);
    }
    body.append(row.tr);
    drawLoopRow(row, entry);
  }
  for (const [id, row] of loopRows) {
    if (seen.has(id)) continue;
    row.tr.remove();
    loopRows.delete(id);
  }
  const busy = state.activity?.busy ?? [];
  $('busy').textContent = busy.length ? `busy: ${busy.join('; ')}` : 'all quiet';
  $('supervisor').textContent = state.supervisorMessage;
  const faults = state.activity?.faults ?? [];
  $('faults').textContent = faults.length ? `active fault rules: ${faults.map(describeRule).join(' · ')}` : '';
  refreshTargets();
}

/**
 * @param {LoopEntry} entry
 * @returns {LoopRow}
 */
function makeLoopRow(entry) {
  const tr = el('tr');
  tr.dataset.loop = entry.loop?.name ?? entry.name;
  tr.dataset.component = entry.name;
  const cells = Array.from({ length: 9 }, () => el('td'));
  tr.append(...cells);
  if (entry.process) {
    const name = entry.name;
    cells[8].append(
      button('kill', () => chaos({ action: 'kill-loop', target: name }), 'danger kill'),
      button('stop', () => act(`stop ${name}`, () => api('POST', `${API.components}/${name}/stop`)).then(pollComponents), 'stop'),
      button('start', () => act(`start ${name}`, () => api('POST', `${API.components}/${name}/start`)).then(pollComponents), 'start'),
    );
  }
  return { tr, cells };
}

/** @param {LoopRow} row @param {LoopEntry} entry */
function drawLoopRow({ tr, cells }, entry) {
  const { loop, process } = entry;
  cells[0].textContent = entry.name;
  cells[1].textContent = process
    ? `${process.state}${process.pid ? ` pid ${process.pid}` : ''}${process.restarts ? ` · ${process.restarts} restart(s)` : ''}`
    : 'in process';
  tr.dataset.state = process?.state ?? 'running';
  cells[2].textContent = loop?.name ?? '(no activity reported)';
  cells[3].textContent = loop ? `${loop.queued} / ${loop.active} / ${loop.delayed}` : '';
  const rate = loop ? ratePerSecond(entry.id) : undefined;
  cells[4].textContent = rate === undefined ? '' : rate.toFixed(1);
  const r = loop?.reconciles;
  cells[5].textContent = r ? `${r.success ?? 0} / ${r.requeueAfter ?? 0} / ${r.error ?? 0} / ${r.terminal ?? 0}` : '';
  cells[5].classList.toggle('errors', Boolean(r && (r.error || r.terminal)));
  const last = loop?.lastReconcile;
  cells[6].textContent = last
    ? `${last.key} → ${last.result} ${ago(last.finishedAtMs)} (${Math.round(last.durationMs)} ms)${last.error ? `: ${last.error}` : ''}`
    : '';
  cells[6].classList.toggle('errors', Boolean(last?.error));
  cells[7].textContent = last ? (state.causes.get(last.reconcileId) ?? '(wrote nothing)') : '';
}

/** @param {FaultRule} rule */
function describeRule(rule) {
  const what = [rule.error ? `${rule.error.code}` : '', rule.latencyMs ? `+${rule.latencyMs} ms` : '', rule.closeWatches ? 'close watches' : '']
    .filter(Boolean)
    .join(', ');
  return `${rule.id}: ${rule.userAgent ?? 'every client'} → ${what}${rule.expiresAt ? ` until ${timeOfDay(Date.parse(rule.expiresAt))}` : ''}`;
}

async function pollComponents() {
  try {
    const response = await fetch(API.components, { headers: { Accept: 'application/json' } });
    const answer = await response.json();
    if (response.ok) {
      state.components = answer.components;
      state.supervisorMessage = '';
    } else {
      state.components = [];
      state.supervisorMessage = answer.message ?? `HTTP ${response.status}`;
    }
  } catch {
    // The feed's own reconnect says the server is gone; keep what was known.
  }
  dirty.loops = true;
  schedule();
}

// ─── Chaos ──────────────────────────────────────────────────────────────────────────

/** @param {ChaosRequest} request */
async function chaos(request) {
  const result = $('chaos-result');
  result.className = 'result';
  result.textContent = `${request.action} ${request.target ?? ''}…`;
  try {
    const answer = /** @type {{ did: string, expect: string }} */ (await api('POST', API.chaos, request));
    result.textContent = `${answer.did}\n\nExpect: ${answer.expect}`;
    say(`chaos ${request.action} ${request.target ?? ''}: done`);
  } catch (err) {
    result.className = 'result error';
    result.textContent = messageOf(err);
    say(`chaos ${request.action} ${request.target ?? ''}: ${messageOf(err)}`, true);
  }
  void pollComponents();
}

function refreshTargets() {
  const action = $of('chaos-action', HTMLSelectElement).value;
  const select = $of('chaos-target', HTMLSelectElement);
  /** @type {string[]} */
  let options;
  if (NODE_ACTIONS.has(action)) options = [...state.objects.nodes.values()].map((n) => n.metadata.name).sort();
  else if (action === 'random') options = [];
  else options = (state.components ?? []).map((c) => c.name);
  if (action === 'slow-api') options = ['', ...options];
  const wanted = options.join('\n');
  if (select.dataset.options === wanted) return;
  const previous = select.value;
  select.dataset.options = wanted;
  select.replaceChildren(
    ...options.map((name) => {
      const option = el('option', '', name === '' ? '(every client)' : name);
      option.value = name;
      return option;
    }),
  );
  if (options.includes(previous)) select.value = previous;
  select.disabled = options.length === 0;
}

function chaosFromForm() {
  const action = $of('chaos-action', HTMLSelectElement).value;
  /** @type {ChaosRequest} */
  const request = { action };
  const target = $of('chaos-target', HTMLSelectElement).value;
  if (target && action !== 'random') request.target = target;
  const seconds = Number($of('chaos-seconds', HTMLInputElement).value);
  if (seconds > 0) request.seconds = seconds;
  if (action === 'slow-api') request.latencyMs = Number($of('chaos-latency', HTMLInputElement).value) || 300;
  const seed = $of('chaos-seed', HTMLInputElement).value;
  if (action === 'random' && seed !== '') request.seed = Number(seed);
  return request;
}

// ─── Timeline ───────────────────────────────────────────────────────────────────────

/** @type {Record<ChangeType, string>} */
const CHANGE_WORD = { ADDED: 'created', MODIFIED: 'updated', DELETED: 'deleted' };

function renderTimeline() {
  const body = $of('timeline', HTMLTableElement).tBodies[0];
  if (dirty.timelineReset) body.replaceChildren();
  const fragment = document.createDocumentFragment();
  for (let i = dirty.timeline.length - 1; i >= 0; i--) fragment.append(timelineRow(dirty.timeline[i]));
  body.prepend(fragment);
  while (body.rows.length > TIMELINE_ROWS) body.lastElementChild?.remove();
  dirty.timeline = [];
  dirty.timelineReset = false;
}

/** @param {HistoryItem} item */
function timelineRow(item) {
  const tr = el('tr', `change-${item.type.toLowerCase()}`);
  const actor = item.actor;
  const who = actor?.controller ?? product(actor?.userAgent) ?? actor?.fieldManager ?? actor?.user ?? 'API server';
  const cause = actor?.trigger ? describeTrigger(actor.trigger) : '';
  const fields =
    item.diff
      .slice(0, 3)
      .map((d) => `${d.path}: ${brief(d.old)} → ${brief(d.new)}`)
      .join('; ') + (item.diff.length > 3 ? `; +${item.diff.length - 3} more` : '');
  tr.append(
    el('td', 'time', timeOfDay(Date.parse(item.time))),
    el('td', 'actor', who),
    el('td', '', CHANGE_WORD[item.type] ?? item.type),
    el('td', '', `${item.kind ?? item.resource} ${item.namespace ? `${item.namespace}/` : ''}${item.name}`),
    el('td', 'cause', cause),
    el('td', 'fields', fields),
  );
  return tr;
}

/** product is a User-Agent's first word; every browser's is `Mozilla`, so it says browser.
 * @param {string | undefined} userAgent */
function product(userAgent) {
  const first = userAgent ? userAgent.split('/')[0] : undefined;
  return first === 'Mozilla' ? 'browser' : first;
}

/** @param {unknown} value */
function brief(value) {
  if (value === undefined) return '∅';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

// ─── Clock ──────────────────────────────────────────────────────────────────────────

function renderClock() {
  dirty.clock = false;
  const clock = state.clock;
  $('clock').classList.toggle('absent', !clock);
  $of('clock-pause', HTMLButtonElement).disabled = !clock || clock.paused;
  $of('clock-resume', HTMLButtonElement).disabled = !clock?.paused;
  if (!clock) {
    $('clock-state').textContent = 'this cluster has no clock API';
    return;
  }
  $('clock-state').textContent = clock.paused ? 'paused' : `running ×${clock.speed}`;
  $('clock').dataset.paused = String(clock.paused);
  const speed = $of('clock-speed', HTMLInputElement);
  if (document.activeElement !== speed) speed.value = String(clock.speed);
  tickClock();
}

function tickClock() {
  if (state.clock) $('clock-now').textContent = new Date(clockNowMs()).toISOString().replace('T', ' ').slice(0, 19);
}

// ─── Frame meter (for bench:ui) ──────────────────────────────────────────────────────

let meter = 0;

/** startFrameMeter records the interval between animation frames until stopFrameMeter. */
function startFrameMeter() {
  stats.frameIntervals = [];
  let last = performance.now();
  /** @param {number} now */
  const tick = (now) => {
    stats.frameIntervals.push(now - last);
    last = now;
    if (meter) meter = requestAnimationFrame(tick);
  };
  meter = requestAnimationFrame(tick);
}

function stopFrameMeter() {
  cancelAnimationFrame(meter);
  meter = 0;
  return stats.frameIntervals;
}

// For bench:ui and the browser tests, which read it through the page.
Object.assign(window, { kubesimLiveView: { stats, state, startFrameMeter, stopFrameMeter } });

// ─── Wiring ─────────────────────────────────────────────────────────────────────────

function wire() {
  document.querySelector('main')?.addEventListener('click', (event) => {
    if (!(event.target instanceof Element)) return;
    const target = event.target.closest('[data-select]');
    if (target instanceof HTMLElement && !event.target.closest('button, input, select, label')) {
      event.stopPropagation();
      select(/** @type {Kind} */ (target.dataset.select), target.dataset.key ?? '');
    }
  });
  $('clock-pause').addEventListener('click', () => act('pause the clock', () => api('POST', `${API.clock}/pause`)));
  $('clock-resume').addEventListener('click', () => act('resume the clock', () => api('POST', `${API.clock}/resume`)));
  $('clock-speed-set').addEventListener('click', () =>
    act(`clock speed ×${$of('clock-speed', HTMLInputElement).value}`, () =>
      api('POST', `${API.clock}/speed`, { speed: Number($of('clock-speed', HTMLInputElement).value) }),
    ),
  );
  $('clock-advance-go').addEventListener('click', () =>
    act(`advance the clock ${$of('clock-advance', HTMLInputElement).value}`, () =>
      api('POST', `${API.clock}/advance`, { duration: $of('clock-advance', HTMLInputElement).value }),
    ),
  );
  $('chaos-action').addEventListener('change', refreshTargets);
  $('chaos-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void chaos(chaosFromForm());
  });
  window.addEventListener('resize', () => renderEdges());
  setInterval(tickClock, 250);
  setInterval(() => {
    const objects = KINDS.reduce((n, kind) => n + state.objects[kind].size, 0);
    $('stats').textContent = `${objects} objects · ${stats.storeEvents} changes seen · ${stats.frames} frames`;
  }, 1000);
  const poll = async () => {
    await pollComponents();
    setTimeout(poll, state.supervisorMessage ? 10_000 : 1000);
  };
  void poll();
  connect();
}

wire();
