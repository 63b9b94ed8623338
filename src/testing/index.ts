// rx-tool-loop/testing: drive and marble-test agents without a network.

// --- scripted model
export { scriptedModel, scriptPositions, stepEvents } from './scripted-model.js';
export type { ScriptedModel, ScriptedResponse, ScriptedStep } from './scripted-model.js';

// --- fake tools
export { fakeTool } from './fake-tool.js';
export type { FakeTool, FakeToolCall } from './fake-tool.js';

// --- marble testing
export { eventCode } from './event-code.js';
export { createTestScheduler } from './test-scheduler.js';
export type { ExpectLike } from './test-scheduler.js';
