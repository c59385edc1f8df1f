/* The controller of whichever report form runs fills these in; the test
 * hook exposes them. */
const app = {
  ready: false,
  state: () => null,
  blendPositions: () => null,
  sourcePositions: () => null,
  setBlendWeight: () => {},
  setFrame: () => {},
  selectFinding: () => {},
  togglePlay: () => {},
  setPhase: () => {},
  setOverlay: () => {},
  meshQuality: () => null,
  selectMeshMark: () => {},
};
