import { describeLeaks } from './leaks.js';

// 10,000 cancelled turns in a child process with --expose-gc (`npm run test:stress`: 100,000).
describeLeaks(10_000, 60_000);
