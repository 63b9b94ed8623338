import { describeArgumentProperties } from './argument-properties.js';

// Fuzzing and growth checks of argument decoding (`npm run test:stress` runs 10x as many).
describeArgumentProperties(1);
