// What a quota area holds, and the bytes promised to uploads still arriving there: read and reserved in one
// transaction, one area at a time, so two uploads can never both take the area's last free bytes.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { toDbTime } from '../../db/values';
import type { StorageTables } from './tables';

interface ReservationRequest {
  bucket: string;
  /** The area's prefix, ending in `/`. */
  area: string;
  key: string;
  bytes: number;
  maxObjectBytes: number;
  maxAreaBytes: number;
  /** For an UploadPart: its upload and part number (a part sent again replaces its earlier bytes). */
  part?: { uploadId: string; partNumber: number };
  now: Date;
  /** Reservations older than this stop counting (an upload that never ended, a crash). */
  staleBefore: Date;
}

type ReservationOutcome = { reserved: string } | { refused: 'object' | 'area'; usedBytes: number };

/** The first string after every string that starts with `prefix`, in byte order. */
const prefixEnd = (prefix: string) => prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

export function createQuotaRepository(db: Kysely<StorageTables>) {
  const postgres = isPostgres(db);
  return {
    async reserve(request: ReservationRequest): Promise<ReservationOutcome> {
      const { bucket, area, key } = request;
      return db.transaction().execute(async (trx) => {
        // One writer per area at a time. On SQLite every transaction already runs alone (one connection).
        if (postgres) await sql`select pg_advisory_xact_lock(hashtextextended(${`${bucket}/${area}`}, 0))`.execute(trx);
        await trx.deleteFrom('storage_reservations').where('bucket', '=', bucket).where('area', '=', area).where('created_at', '<', toDbTime(request.staleBefore)).execute();

        // The area's objects, its parts and the bytes still arriving, and for a part the upload's other parts and
        // the bytes arriving for its key, all read in ONE statement: one snapshot. An upload that ends records its
        // object or part and then releases its reservation, in two commits; separate statements could see the row
        // missing and the reservation gone, and let the bytes through uncounted. One snapshot sees at least one of
        // them (at worst both: counted twice for a moment, never not at all).
        const { part } = request;
        const sums = await trx
          .selectNoFrom((eb) => [
            eb
              .selectFrom('storage_objects')
              .select((inner) => inner.fn.sum<string | number | null>('size').as('total'))
              .where('bucket', '=', bucket)
              .where('object_key', '>=', area)
              .where('object_key', '<', prefixEnd(area))
              // An object written again gives its bytes back when the new version lands.
              .where('object_key', '!=', key)
              .as('objects'),
            eb
              .selectFrom('storage_parts as p')
              .innerJoin('storage_uploads as u', 'u.upload_id', 'p.upload_id')
              .select((inner) => inner.fn.sum<string | number | null>('p.size').as('total'))
              .where('u.bucket', '=', bucket)
              .where('u.object_key', '>=', area)
              .where('u.object_key', '<', prefixEnd(area))
              .$if(part !== undefined, (query) => query.where((inner) => inner.not(inner.and([inner('p.upload_id', '=', part!.uploadId), inner('p.part_number', '=', part!.partNumber)]))))
              .as('parts'),
            eb
              .selectFrom('storage_reservations')
              .select((inner) => inner.fn.sum<string | number | null>('bytes').as('total'))
              .where('bucket', '=', bucket)
              .where('area', '=', area)
              .as('reserved'),
          ])
          // For a part, the object its upload makes: the parts recorded (this one's earlier bytes aside, which it
          // replaces) and those arriving for the same key.
          .$if(part !== undefined, (query) =>
            query.select((eb) => [
              eb
                .selectFrom('storage_parts')
                .select((inner) => inner.fn.sum<string | number | null>('size').as('total'))
                .where('upload_id', '=', part!.uploadId)
                .where('part_number', '!=', part!.partNumber)
                .as('uploadParts'),
              eb
                .selectFrom('storage_reservations')
                .select((inner) => inner.fn.sum<string | number | null>('bytes').as('total'))
                .where('bucket', '=', bucket)
                .where('area', '=', area)
                .where('object_key', '=', key)
                .as('arriving'),
            ]),
          )
          .executeTakeFirstOrThrow();
        const reservedTotal = Number(sums.reserved ?? 0);
        const partsTotal = Number(sums.parts ?? 0);
        const objectsTotal = Number(sums.objects ?? 0);

        if (part) {
          const objectBytes = Number(sums.uploadParts ?? 0) + Number(sums.arriving ?? 0) + request.bytes;
          if (objectBytes > request.maxObjectBytes) return { refused: 'object' as const, usedBytes: objectBytes - request.bytes };
        }
        const usedBytes = objectsTotal + partsTotal + reservedTotal;
        if (usedBytes + request.bytes > request.maxAreaBytes) return { refused: 'area' as const, usedBytes };

        const id = randomUUID();
        await trx
          .insertInto('storage_reservations')
          .values({ id, bucket, area, object_key: key, bytes: request.bytes, created_at: toDbTime(request.now) })
          .execute();
        return { reserved: id };
      });
    },

    /**
     * The sweep's: removes the reservations made before `before`, which count no more (uploads that never ended:
     * a crash between reserving and releasing). A write to their area removes its own too.
     */
    async removeStale(before: Date): Promise<number> {
      const removed = await db.deleteFrom('storage_reservations').where('created_at', '<', toDbTime(before)).executeTakeFirst();
      return Number(removed.numDeletedRows);
    },

    /** Called once the upload's rows are committed (or it failed): its bytes now count as an object or a part, or not at all. */
    async release(id: string): Promise<void> {
      await db.deleteFrom('storage_reservations').where('id', '=', id).execute();
    },
  };
}

export type QuotaRepository = ReturnType<typeof createQuotaRepository>;
