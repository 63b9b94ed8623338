// results: bounds, receipts, scrubbing, loop detection, after-tool-call hooks.
export { truncateToolResult } from './truncate.js';
export { createReceiptGenerator } from './receipts.js';
export type { ReceiptGenerator, ReceiptInput } from './receipts.js';
export { scrubCredentials } from './scrub.js';
export { scrubValue } from './scrub-value.js';
export { scrubStream } from './scrub-stream.js';
export type { StreamScrubber } from './scrub-stream.js';
export { LoopDetector, loopThresholds } from './loop-detector.js';
export type { LoopPattern, LoopLevel, LoopThresholds, LoopVerdict, LoopReport, LoopObservation } from './loop-detector.js';
export { loopTexts } from './loop-texts.js';
