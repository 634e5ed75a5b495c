import type { SimInput, SimOutput } from './types.js';

/** Runs one simulation. (Implemented by the network layer; placeholder until it lands.) */
export function simulate(input: SimInput): SimOutput {
  void input;
  throw new Error('simulate: not implemented yet');
}
