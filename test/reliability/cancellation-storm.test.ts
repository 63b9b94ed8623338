import { describe, it } from 'vitest';
import { describeStorm } from './storm.js';

// `npm run test:stress` runs ten times as many scenarios.
describeStorm(200, describe, it);
