// Tool assembly: registry, bundles, risk profile, filter groups, deferred activation.
export { ToolRegistry } from './tool-registry.js';
export { toolBundle } from './tool-bundle.js';
export type { ToolBundle } from './tool-bundle.js';
export type { ToolSelector } from './tool-selector.js';
export type { RiskProfile } from './risk-profile.js';
export type { FilterGroup } from './filter-group.js';
export { ActivatedToolSet } from './activated-tool-set.js';
export { ActivationStore, sharedActivations, type ActivationScopes, type ActivationStoreOptions } from './activation-store.js';
export { DEFERRED_LISTING_BUDGET, TOOL_SEARCH, deferredToolsListing, searchDeferredTools } from './tool-search.js';
