/** Topologies: plain-data contracts, the topology-type registry (kinds.ts), builders, file loaders, routing. */
export type * from './types.js';
export * from './validate.js';
export * from './builders.js';
export * from './acc.js';
export * from './circuit.js';
export * from './rdcn.js';
export * from './files.js';
export * from './routing.js';
export * from './partition.js';
export * from './kinds.js';
export { FAT_TREE_REQUIRED, SPINE_LEAF_REQUIRED } from './kinds-builders.js';
export * from './file-problems.js';
export { Builder } from './builder.js';
