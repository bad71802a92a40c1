import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

export type ReviewTemplateKind = 'rejection' | 'more-info';

export interface ReviewTemplate {
  id: string;
  kind: ReviewTemplateKind;
  title: { es: string; en: string };
  body: { es: string; en: string };
  updatedAt: string;
  updatedBy: string;
  retired: boolean;
}

type Row = Database['review_templates'];

const toTemplate = (row: Row): ReviewTemplate => ({
  id: row.id,
  kind: row.kind as ReviewTemplateKind,
  title: { es: row.title_es, en: row.title_en },
  body: { es: row.body_es, en: row.body_en },
  updatedAt: row.updated_at,
  updatedBy: row.updated_by,
  retired: row.retired_at !== null,
});

/** The words the bank gives applicants when it rejects them or asks them for more, edited by its administrators. */
export function reviewTemplateRepository(db: Kysely<Database>) {
  return {
    /** Every template, retired ones included (with `retired`), by kind then id. */
    async list(): Promise<ReviewTemplate[]> {
      return (await db.selectFrom('review_templates').selectAll().orderBy('kind').orderBy('id').execute()).map(toTemplate);
    },

    async find(id: string): Promise<ReviewTemplate | undefined> {
      const row = await db.selectFrom('review_templates').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toTemplate(row);
    },

    /** Writes a template, new or changed; a template's kind never changes (decisions that used it keep their meaning). */
    async save(template: Omit<ReviewTemplate, 'updatedAt'>, now: Date): Promise<'created' | 'updated' | 'kind-differs'> {
      const values = {
        title_es: template.title.es,
        title_en: template.title.en,
        body_es: template.body.es,
        body_en: template.body.en,
        updated_at: toDbTime(now),
        updated_by: template.updatedBy,
        retired_at: template.retired ? toDbTime(now) : null,
      };
      const inserted = await db
        .insertInto('review_templates')
        .values({ id: template.id, kind: template.kind, ...values })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return 'created';
      const updated = await db.updateTable('review_templates').set(values).where('id', '=', template.id).where('kind', '=', template.kind).executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1 ? 'updated' : 'kind-differs';
    },
  };
}

export type ReviewTemplateRepository = ReturnType<typeof reviewTemplateRepository>;
