/**
 * The node-and-link accumulator the topology builders share (docs/network-model.md §14):
 * node ids in creation order (hosts first), names from the layer prefix and the id.
 */
import type { Layer, TopoLink, TopoNode, Topology } from './types.js';
import { validateTopology } from './validate.js';

const NAME_PREFIX: Record<Layer, string> = {
  host: 'h',
  tor: 'tor',
  agg: 'agg',
  core: 'core',
  leaf: 'leaf',
  spine: 'spine',
  switch: 'sw',
};

/** Accumulates nodes and links; hosts must all be added before any switch. */
export class Builder {
  readonly nodes: TopoNode[] = [];
  readonly links: TopoLink[] = [];
  private hosts = 0;

  addHosts(count: number): number {
    if (this.nodes.length !== this.hosts) throw new Error('internal: hosts must be added before switches');
    const first = this.nodes.length;
    for (let i = 0; i < count; i++) this.add('host');
    this.hosts += count;
    return first;
  }

  addSwitches(count: number, layer: Layer): number {
    const first = this.nodes.length;
    for (let i = 0; i < count; i++) this.add(layer);
    return first;
  }

  link(a: number, b: number, rateBps: number, delayPs: number): void {
    this.links.push({ a, b, rateBps, delayPs });
  }

  finish(name: string): Topology {
    const topo: Topology = { name, nodes: this.nodes, links: this.links, hostCount: this.hosts };
    validateTopology(topo);
    return topo;
  }

  private add(layer: Layer): void {
    const id = this.nodes.length;
    this.nodes.push({ id, kind: layer === 'host' ? 'host' : 'switch', name: `${NAME_PREFIX[layer]}${id}`, layer });
  }
}
