/**
 * The figure-analysis registry of the experiment layer (src/experiment/results/analysis.ts):
 * the built-in analysis is always there, experiments/index.js registers every
 * paper's analyses, an id names one analysis only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figureNames, findFigure, registerFigure, type FigureAnalysis } from '../src/experiment/results/analysis.js';
import '../experiments/index.js';

test('registry: built-in first, then every paper in registration order; ids are unique', () => {
  const names = figureNames();
  assert.equal(names[0], 'slowdown-table');
  assert.equal(new Set(names).size, names.length);
  for (const paper of ['oscar', 'ccc', 'sqcc', 'powertcp', 'acc']) assert.ok(names.some((n) => findFigure(n)!.paper === paper), paper);
  // papers keep the order the registry had before the analyses moved beside their specs
  const firstOf = (paper: string): number => names.findIndex((n) => findFigure(n)!.paper === paper);
  assert.deepEqual(['oscar', 'ccc', 'sqcc', 'powertcp', 'acc'].map(firstOf), [...['oscar', 'ccc', 'sqcc', 'powertcp', 'acc'].map(firstOf)].sort((a, b) => a - b));
  assert.equal(findFigure('no-such-figure'), undefined);
});

test('registry: the same analysis again is a no-op, another one under a taken id is an error', () => {
  const a: FigureAnalysis = { id: 'test-registry-a', paper: 'test', title: 'a', analyze: () => ({ tables: [], claims: [] }) };
  registerFigure(a);
  registerFigure(a);
  assert.equal(findFigure('test-registry-a'), a);
  assert.equal(figureNames().filter((n) => n === 'test-registry-a').length, 1);
  assert.throws(() => registerFigure({ ...a, paper: 'other' }), /figure analysis \"test-registry-a\" from paper other clashes with the one already registered from paper test/);
  assert.throws(() => registerFigure({ ...findFigure('oscar-fig9')! }), /\"oscar-fig9\" from paper oscar clashes/);
});
