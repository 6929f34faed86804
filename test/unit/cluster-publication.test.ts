/**
 * What a failed cluster load says was published (ingest/postgres/publish.ts): nothing when it
 * failed before the transaction naming the new generation committed (that transaction rolled
 * back); unknown when the coordinator went away while it committed, and then the load keeps
 * what it wrote. The failures themselves are caused on a real cluster in
 * test/engines/postgres/ingest-faults.test.ts; the commit's own moment cannot be hit there.
 */
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ServerLostError } from '../../src/ingest/postgres/client.ts';
import {
  type Publication,
  PublishUnknownError,
  publish,
  unpublished,
} from '../../src/ingest/postgres/publish.ts';

const PUBLICATION: Publication = {
  generation: '0123456789abcdef',
  schema: 'g_0123456789abcdef',
  lineage: '0123456789abcdef',
  dataSchema: 'd_0123456789abcdef',
  seq: 0,
  logFloor: 0,
  source: '/exports/full',
  shards: 2,
  tokens: [],
  revokedTokens: [],
};

const lost = () =>
  new ServerLostError(
    'the coordinator (10.0.0.10:5432)',
    new Error('Connection terminated unexpectedly'),
  );

/** A coordinator whose statements succeed, but the first starting with `failing` rejects. */
function coordinator(failing: string): { client: pg.Client; statements: string[] } {
  const statements: string[] = [];
  const client = {
    query: async (sql: string) => {
      statements.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
      if (sql.trim().startsWith(failing)) throw lost();
      return { rows: [], rowCount: 0 };
    },
  } as unknown as pg.Client;
  return { client, statements };
}

describe('what a failed cluster load says was published', () => {
  it('the coordinator lost while the publication commits: unknown, and said so', async () => {
    const { client } = coordinator('COMMIT');
    const error = await publish(client, PUBLICATION).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PublishUnknownError);
    expect((error as Error).message).toBe(
      'the coordinator (10.0.0.10:5432) went away: Connection terminated unexpectedly, while generation 0123456789abcdef was being published: whether it was is unknown; it was if public.store_meta names it once the coordinator is back (the next load clears what this one wrote if not)',
    );
    expect(unpublished(error, 'fedcba9876543210')).toBe(error);
  });

  it('lost before the commit: rolled back, and nothing was published', async () => {
    const { client, statements } = coordinator('INSERT INTO public.generations');
    const error = await publish(client, PUBLICATION).catch((caught: unknown) => caught);
    expect(statements.at(-1)).toBe('ROLLBACK');
    expect(statements).not.toContain('COMMIT');
    expect((unpublished(error, 'fedcba9876543210') as Error).message).toBe(
      'the coordinator (10.0.0.10:5432) went away: Connection terminated unexpectedly. Nothing was published: the cluster still serves generation fedcba9876543210 (the next load clears what this one wrote)',
    );
    expect((unpublished(error, null) as Error).message).toMatch(
      /Nothing was published: the cluster holds no store yet/,
    );
  });

  it('a refusal before the load began keeps its words; a lost server still says nothing was published', () => {
    const refusal = new Error('the cluster holds no store yet: build it first with --source');
    expect(unpublished(refusal, undefined)).toBe(refusal);
    expect((unpublished(lost(), undefined) as Error).message).toBe(
      'the coordinator (10.0.0.10:5432) went away: Connection terminated unexpectedly. Nothing was published',
    );
  });
});
