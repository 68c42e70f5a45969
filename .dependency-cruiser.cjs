// Dependency direction (see openspec/project.md):
//   shared -> core (device -> perception -> tools -> storage -> runtime -> flows -> headless) -> app -> cli/mcp/eval
//   -> shell (src/main)
// src/core runs one task on one phone, headless; src/app serves windows, the web page and MCP; src/main is the
// Electron shell only. Paths are matched without a leading anchor so the rule fixtures in test/fixtures/layering are
// judged the same way.
const layer = (name) => (name === 'app' ? '(^|/)src/app/' : `(^|/)src/core/${name}/`);
const later = (...names) => names.map(layer).join('|');
// The provider clients' pure entry and the modules it is made of: the decision contract, the client options,
// redaction, reply words.
const providerContract = '(^|/)packages/provider-clients/src/contract\\.ts$';
const providerContractModules = '(^|/)packages/provider-clients/src/(contract|decision|client-options|redact|reply-words)\\.ts$';

// Each layer may import the layers before it, never the ones after it (nor the CLI).
const layers = ['device', 'perception', 'tools', 'storage', 'runtime', 'flows', 'headless', 'app'];
const layerRules = layers.slice(0, -1).map((name, index) => ({
  name: `${name}-layer-direction`,
  severity: 'error',
  from: { path: layer(name) },
  to: { path: `${later(...layers.slice(index + 1))}|(^|/)src/cli/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'electron-only-in-shell-and-preload',
      comment: 'Only the Electron shell (src/main: index.ts and its secrets adapter) and the preload may import electron.',
      severity: 'error',
      from: { pathNot: '(^|/)src/(main|preload)/' },
      to: { path: '^electron$|node_modules/electron/' },
    },
    {
      name: 'shared-is-pure',
      comment:
        'src/shared is the contract: it imports only itself, zod, i18next (the message catalogs) and the provider clients\' ' +
        'pure entry (the decision contract, the redaction step); no Node, no DOM, no app code.',
      severity: 'error',
      from: { path: '(^|/)src/shared/' },
      to: { pathNot: `(^|/)src/shared/|node_modules/(zod|i18next)/|(^|/)package\\.json$|${providerContract}` },
    },
    {
      name: 'renderer-imports-only-shared',
      comment: "The renderer talks to main only through the Bridge; it imports src/shared, itself, UI packages and the provider clients' pure entry.",
      severity: 'error',
      from: { path: '(^|/)src/renderer/' },
      to: { path: '(^|/)src/(main|core|app|preload|cli|control-plane)/|(^|/)packages/demo-phone/|(^|/)packages/provider-clients/', pathNot: providerContract },
    },
    ...layerRules,
    {
      name: 'services-never-import-their-adapters',
      comment: 'The CLI, the MCP server and eval are adapters over the app (like the web host): core, app and the shell never import them.',
      severity: 'error',
      from: { path: '(^|/)src/(main|core|app)/' },
      to: { path: '(^|/)src/(cli|mcp|eval)/' },
    },
    {
      name: 'fleet-is-read-by-the-app-only',
      comment: 'The fleet (queues on Redis) knows nothing of the app; only the app layer reads it (the Fleet view), never the runtime below.',
      severity: 'error',
      from: { path: '(^|/)src/fleet/' },
      to: { path: '(^|/)src/(main|core|app|cli|mcp|eval|renderer)/' },
    },
    {
      name: 'only-the-app-layer-reads-the-fleet',
      severity: 'error',
      from: { path: '(^|/)src/(main|core)/' },
      to: { path: '(^|/)src/fleet/' },
    },
    {
      name: 'services-never-import-the-shell',
      severity: 'error',
      from: { path: '(^|/)src/', pathNot: '(^|/)src/main/' },
      to: { path: '(^|/)src/main/' },
    },
    {
      name: 'demo-phone-is-standalone',
      comment: 'The demo phone (packages/demo-phone) stands in for a phone: it imports nothing of the app.',
      severity: 'error',
      from: { path: '(^|/)packages/demo-phone/' },
      to: { path: '(^|/)src/', pathNot: '(^|/)packages/demo-phone/' },
    },
    {
      name: 'demo-phone-through-its-entry',
      comment: "The app, eval, the CLI and the control plane use the demo phone through its package's public entry only.",
      severity: 'error',
      from: { path: '(^|/)src/', pathNot: '(^|/)packages/' },
      to: { path: '(^|/)packages/demo-phone/', pathNot: '(^|/)packages/demo-phone/src/index\\.ts$' },
    },
    {
      name: 'provider-clients-are-standalone',
      comment: 'The provider clients (packages/provider-clients) serve the app and the control plane: they import nothing of either.',
      severity: 'error',
      from: { path: '(^|/)packages/provider-clients/' },
      to: { path: '(^|/)src/|(^|/)packages/demo-phone/', pathNot: '(^|/)packages/provider-clients/' },
    },
    {
      name: 'provider-clients-through-their-entries',
      comment: "The app and the control plane use the provider clients through the package's public entries only (index.ts, contract.ts).",
      severity: 'error',
      from: { path: '(^|/)src/', pathNot: '(^|/)packages/' },
      to: { path: '(^|/)packages/provider-clients/', pathNot: `(^|/)packages/provider-clients/src/index\\.ts$|${providerContract}` },
    },
    {
      name: 'provider-contract-is-pure',
      comment: 'The pure entry (what src/shared and the renderer import) reaches zod and nothing else: no provider SDK, no Node.',
      severity: 'error',
      from: { path: providerContractModules },
      to: { pathNot: `${providerContractModules}|node_modules/zod/` },
    },
    {
      name: 'control-plane-is-not-the-app',
      comment: 'The control plane shares the provider clients and src/shared with the app and nothing else of it.',
      severity: 'error',
      from: { path: '(^|/)src/control-plane/' },
      to: { path: '(^|/)src/(main|core|app|renderer|preload|cli|mcp|eval|fleet)/|(^|/)packages/demo-phone/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)out/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
