import { describe, it } from 'vitest';
import { describeStorm } from '../reliability/storm.js';

// test/reliability/cancellation-storm.test.ts with 10x the scenarios.
describeStorm(2_000, describe, it);
