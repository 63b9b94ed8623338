import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import type PgBoss from 'pg-boss';
import { expectTypeOf, test } from 'vitest';
import type { PgBossClient, PgliteDb, PgPool } from '../../src/durable/index.js';

test('a PGlite is a PgliteDb', () => {
  expectTypeOf<PGlite>().toExtend<PgliteDb>();
});

test('a pg Pool is a PgPool', () => {
  expectTypeOf<Pool>().toExtend<PgPool>();
});

test('a PgBoss is a PgBossClient', () => {
  expectTypeOf<PgBoss>().toExtend<PgBossClient>();
});
