/**
 * Watch frames encoded once per change: every watcher of a change that asks for the same
 * representation (served version, JSON or Table, event type) writes the same bytes, so a
 * change costs one conversion and one serialisation however many watchers receive it.
 * Watchers with different selectors still share them: a selector only decides whether a
 * watcher gets the change and as which event type, and the type is part of the key.
 */
import type { SharedStoreEvent } from '../../store/index.js';
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { asKube } from '../registry/context.js';
import { servedText, servedView } from '../registry/object-codec.js';

/** ServedEntry is a change's object in a served version: `served` for the client, `printed`
 * (the stored object) for Table cells, and `json`, the text of `served`. */
export interface ServedEntry {
  readonly served: KubeObject;
  readonly printed: KubeObject;
  readonly json: string;
}

interface Encodings {
  entry?: ServedEntry;
  frames: Map<string, Buffer>;
}

// Dropped with the change once every watcher has written it.
const byEvent = new WeakMap<SharedStoreEvent, Map<ResourceDefinition, Encodings>>();

/** sharedFrame returns the frame `key` of `event` as served by `def`, encoding it with
 * `encode` the first time any watcher asks. */
export function sharedFrame(event: SharedStoreEvent, def: ResourceDefinition, key: string, encode: (entry: ServedEntry) => string): Buffer {
  const encodings = encodingsOf(event, def);
  let frame = encodings.frames.get(key);
  if (frame === undefined) {
    encodings.entry ??= new SharedEntry(def, event);
    frame = Buffer.from(encode(encodings.entry));
    encodings.frames.set(key, frame);
  }
  return frame;
}

function encodingsOf(event: SharedStoreEvent, def: ResourceDefinition): Encodings {
  let byDef = byEvent.get(event);
  if (byDef === undefined) {
    byDef = new Map();
    byEvent.set(event, byDef);
  }
  let encodings = byDef.get(def);
  if (encodings === undefined) {
    encodings = { frames: new Map() };
    byDef.set(def, encodings);
  }
  return encodings;
}

// Parses nothing until asked: a JSON frame of a body already in the served form is the
// stored text itself; Table frames and conversions read the event's shared parse.
class SharedEntry implements ServedEntry {
  private view: KubeObject | undefined;
  private text: string | undefined;

  constructor(
    private readonly def: ResourceDefinition,
    private readonly event: SharedStoreEvent,
  ) {}

  get printed(): KubeObject {
    return asKube(this.event.object);
  }

  get served(): KubeObject {
    this.view ??= servedView(this.def, this.printed);
    return this.view;
  }

  get json(): string {
    this.text ??= servedText(this.def, this.event.body) ?? JSON.stringify(this.served);
    return this.text;
  }
}
