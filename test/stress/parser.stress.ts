import { describeArgumentProperties } from '../reliability/argument-properties.js';
import { describeParserProperties } from '../reliability/parser-properties.js';

// The fuzzing of test/reliability with 10x the runs and 1 MB growth inputs.
describeParserProperties(10);
describeArgumentProperties(10);
