import { describeLeaks } from '../reliability/leaks.js';

// test/reliability/leaks.test.ts with 10x the turns.
describeLeaks(100_000, 600_000);
