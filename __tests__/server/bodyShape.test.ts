// A step's body shape is read from its shared yup schema: a field added to the schema is a field of the body,
// with its type and bounds, and no step lists its fields a second time.
import { array, boolean, object, string } from 'yup';
import { bodyFieldsOf, bodyShapeOf } from '../../server/routes/onboarding-management-private/bodyShape';
import { STEP_SCHEMAS, stepSchema, type AnswersStepId } from '../../src/onboarding/stepSchemas';

const country = { name: 'validations.country', test: () => true };

describe("a step's body shape", () => {
  it('takes each field of the schema with its type: texts, flags, country codes and lists of people', () => {
    const schema = object({
      name: string(),
      agreed: boolean(),
      countries: array(string().test(country)),
      people: array(object({ firstName: string(), exposed: boolean() })).meta({ maxItems: 3 }),
    });
    expect(bodyShapeOf(schema)).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string', maxLength: 200 },
        agreed: { type: 'boolean' },
        countries: { type: 'array', maxItems: 250, items: { type: 'string', maxLength: 2 } },
        people: {
          type: 'array',
          maxItems: 3,
          items: { type: 'object', additionalProperties: false, properties: { firstName: { type: 'string', maxLength: 100 }, exposed: { type: 'boolean' } } },
        },
      },
    });
    expect(bodyFieldsOf(schema)).toEqual([
      { name: 'name', list: false, flag: false },
      { name: 'agreed', list: false, flag: true },
      { name: 'countries', list: true, flag: false },
      { name: 'people', list: true, flag: false },
    ]);
  });

  it('refuses a schema type it has no JSON shape for, rather than taking anything', () => {
    expect(() => bodyShapeOf(object({ when: object({ at: string() }) }))).toThrow(/no JSON shape for a yup object/);
  });

  it("gives every declared step the fields of its own schema: the owners' list bounded, the CIF's confirmation taken", () => {
    const shapes = Object.fromEntries((Object.keys(STEP_SCHEMAS) as AnswersStepId[]).map((step) => [step, bodyShapeOf(stepSchema(step, { saved: {} })) as { properties: Record<string, { maxItems?: number }> }]));
    expect(Object.keys(shapes['about-company'].properties)).toEqual(['cif', 'confirmNotServed']);
    expect(shapes['royal-owners'].properties.owners.maxItems).toBe(20);
    expect(Object.keys(shapes['tell-us-more-company'].properties)).toEqual(expect.arrayContaining(['establishedAbroad', 'operativeCountries', 'countriesWhereOperate']));
  });
});
