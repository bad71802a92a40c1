import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

/** Which application holds an ID document (the table's key on the document makes it one at most). */
export function idDocumentHoldRepository(db: Kysely<Database>) {
  return {
    /** Claims the document for the application in one statement; answers the application that holds it afterwards. */
    async claim(idDocument: string, applicationId: string, now: Date): Promise<string> {
      await db
        .insertInto('id_document_holds')
        .values({ id_document: idDocument, application_id: applicationId, held_at: toDbTime(now) })
        .onConflict((conflict) => conflict.doNothing())
        .execute();
      const holder = await db.selectFrom('id_document_holds').select('application_id').where('id_document', '=', idDocument).executeTakeFirst();
      // An application's document never changes, so its own row is always for this document.
      if (!holder) throw new Error(`Application ${applicationId} holds another ID document`);
      return holder.application_id;
    },

    async holderOf(idDocument: string): Promise<string | undefined> {
      return (await db.selectFrom('id_document_holds').select('application_id').where('id_document', '=', idDocument).executeTakeFirst())?.application_id;
    },

    /** The documents held among these, each with its holder. */
    async holdersOf(idDocuments: string[]): Promise<Map<string, string>> {
      if (idDocuments.length === 0) return new Map();
      const rows = await db.selectFrom('id_document_holds').select(['id_document', 'application_id']).where('id_document', 'in', idDocuments).execute();
      return new Map(rows.map((row) => [row.id_document, row.application_id]));
    },

    async release(applicationId: string): Promise<void> {
      await db.deleteFrom('id_document_holds').where('application_id', '=', applicationId).execute();
    },
  };
}

export type IdDocumentHoldRepository = ReturnType<typeof idDocumentHoldRepository>;
