// The quota's reservations: what a part may add to its object and to its area is read in one snapshot, so a part
// that ends meanwhile (its row committed, then its reservation released) is never counted in neither.
import { randomUUID } from 'node:crypto';
import type { Kysely, KyselyPlugin } from 'kysely';
import { createQuotaRepository } from '../../../../server/embedded/s3/quotaRepository';
import type { StorageTables } from '../../../../server/embedded/s3/tables';
import { describeEachDialect, dialects, openTestDatabase, type TestDatabase } from '../../helpers';

const BUCKET = 'divilo-documents';
const AREA = 'private/eu-west-1:quota-test/';
const PART = 5;
const MAX_OBJECT = 4 * PART;
const now = new Date('2026-11-29T10:00:00.000Z');

/** An upload of the area with `recorded` parts of PART bytes stored; returns its id and key. */
async function uploadWithParts(db: Kysely<StorageTables>, recorded: number) {
  const uploadId = randomUUID();
  const key = `${AREA}companyDeeds/${uploadId}.pdf`;
  await db
    .insertInto('storage_uploads')
    .values({ upload_id: uploadId, bucket: BUCKET, object_key: key, owner_identity: null, content_type: 'application/pdf', headers: '{}', created_at: now.toISOString() })
    .execute();
  for (let partNumber = 1; partNumber <= recorded; partNumber += 1) await recordPart(db, uploadId, partNumber);
  return { uploadId, key };
}

const recordPart = (db: Kysely<StorageTables>, uploadId: string, partNumber: number) =>
  db
    .insertInto('storage_parts')
    .values({ upload_id: uploadId, part_number: partNumber, size: PART, etag: '"e"', file: `part-${partNumber}`, last_modified: now.toISOString() })
    .execute();

const reservePart = (repository: ReturnType<typeof createQuotaRepository>, upload: { uploadId: string; key: string }, partNumber: number, bytes: number) =>
  repository.reserve({
    bucket: BUCKET,
    area: AREA,
    key: upload.key,
    bytes,
    maxObjectBytes: MAX_OBJECT,
    maxAreaBytes: 1000 * PART,
    part: { uploadId: upload.uploadId, partNumber },
    now,
    staleBefore: new Date(now.getTime() - 3600_000),
  });

/** Runs `then` (once) right after the `after`-th statement the database it is plugged into answers. */
function afterStatement(after: number, then: () => Promise<void>): KyselyPlugin {
  let answered = 0;
  return {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      answered += 1;
      if (answered === after) await then();
      return args.result;
    },
  };
}

describeEachDialect('the quota repository', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<StorageTables>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    db = database.db.withTables<StorageTables>() as unknown as Kysely<StorageTables>;
  });
  afterAll(() => database.destroy());

  it('of eight parts arriving at once for an object of at most four, four are let through', async () => {
    const repository = createQuotaRepository(db);
    const upload = await uploadWithParts(db, 0);
    // Each part as the endpoint sends it: reserved, stored (its row), released.
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, async (_, index) => {
        const outcome = await reservePart(repository, upload, index + 1, PART);
        if ('reserved' in outcome) {
          await recordPart(db, upload.uploadId, index + 1);
          await repository.release(outcome.reserved);
        }
        return outcome;
      }),
    );
    expect(outcomes.filter((outcome) => 'reserved' in outcome)).toHaveLength(4);
    expect(outcomes.filter((outcome) => 'refused' in outcome).map((outcome) => 'refused' in outcome && outcome.refused)).toEqual(['object', 'object', 'object', 'object']);
    const parts = await db.selectFrom('storage_parts').select('size').where('upload_id', '=', upload.uploadId).execute();
    expect(parts.reduce((sum, part) => sum + Number(part.size), 0)).toBe(MAX_OBJECT);
    expect(await db.selectFrom('storage_reservations').selectAll().execute()).toEqual([]);
  });
});

// Another writer can end its part between two statements of a reservation only where transactions interleave:
// on SQLite every transaction runs alone on the one connection.
const postgres = dialects().find((entry) => entry.dialect === 'postgres')!;
(postgres.skip ? describe.skip : describe)('the quota repository, with a part ending during a reservation (postgres)', () => {
  let database: TestDatabase;
  let db: Kysely<StorageTables>;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    db = database.db.withTables<StorageTables>() as unknown as Kysely<StorageTables>;
  });
  afterAll(() => database.destroy());

  it('refuses the part that would pass the object whichever statement the other part ends after', async () => {
    // Three parts stored and a fourth arriving fill the object; a fifth of one byte would pass it. The fourth ends
    // (its row committed, then its reservation released) after the 1st, 2nd, ... statement of the fifth's
    // reservation; past the last one it ends after the reservation, which must have refused all the same.
    for (let after = 1; after <= 8; after += 1) {
      const upload = await uploadWithParts(db, 3);
      const fourth = await reservePart(createQuotaRepository(db), upload, 4, PART);
      if (!('reserved' in fourth)) throw new Error('the fourth part must fit');
      const fourthEnds = async () => {
        await recordPart(db, upload.uploadId, 4);
        await createQuotaRepository(db).release(fourth.reserved);
      };
      const watched = createQuotaRepository(db.withPlugin(afterStatement(after, fourthEnds)));
      const fifth = await reservePart(watched, upload, 5, 1);
      expect({ after, fifth }).toEqual({ after, fifth: { refused: 'object', usedBytes: MAX_OBJECT } });
      const stillArriving = await db.selectFrom('storage_reservations').select('id').where('object_key', '=', upload.key).execute();
      if (stillArriving.length > 0) await fourthEnds();
    }
  });
});
