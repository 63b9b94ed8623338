import { describeParserProperties } from './parser-properties.js';

// Fuzzing and growth checks of the text-protocol parser (`npm run test:stress` runs 10x as many).
describeParserProperties(1);
