// Field checks with the messages AWS gives, so a bad request reads the same against AWS and here.
import { errors } from './errors';

export type JsonObject = Record<string, unknown>;

interface StringRule {
  min?: number;
  max: number;
  pattern?: RegExp;
}

/** AWS names the member in lowerCamelCase in its validation messages. */
const memberName = (field: string) => field.charAt(0).toLowerCase() + field.slice(1);

function invalid(field: string, constraint: string) {
  return errors.invalidParameter(`1 validation error detected: Value at '${memberName(field)}' failed to satisfy constraint: ${constraint}`);
}

export function optionalString(body: JsonObject, field: string, rule: StringRule): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw errors.serialization();
  if (value.length > rule.max) throw invalid(field, `Member must have length less than or equal to ${rule.max}`);
  if (value.length < (rule.min ?? 1)) throw invalid(field, `Member must have length greater than or equal to ${rule.min ?? 1}`);
  if (rule.pattern && !rule.pattern.test(value)) throw invalid(field, `Member must satisfy regular expression pattern: ${rule.pattern.source}`);
  return value;
}

export function requireString(body: JsonObject, field: string, rule: StringRule): string {
  const value = optionalString(body, field, rule);
  if (value === undefined) {
    throw errors.invalidParameter(
      `1 validation error detected: Value null at '${memberName(field)}' failed to satisfy constraint: Member must not be null`,
    );
  }
  return value;
}

export function optionalBoolean(body: JsonObject, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw errors.serialization();
  return value;
}

/** A string → string map such as AuthParameters; values are capped so one request cannot carry megabytes. */
export function stringMap(body: JsonObject, field: string, maxValueLength = 4096): Record<string, string> {
  const value = body[field];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw errors.serialization();
  const result: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value as JsonObject)) {
    // The browser client sends `DEVICE_KEY: null` when it has no device; AWS reads null as absent.
    if (entry === null) continue;
    if (typeof entry !== 'string') throw errors.serialization();
    if (entry.length > maxValueLength) throw invalid(`${field}.${key}`, `Member must have length less than or equal to ${maxValueLength}`);
    result[key] = entry;
  }
  return result;
}

/** A required entry of AuthParameters or ChallengeResponses. */
export function requireParameter(map: Record<string, string>, name: string, maxLength: number): string {
  const value = map[name];
  if (value === undefined || value === '') throw errors.invalidParameter(`Missing required parameter ${name}`);
  if (value.length > maxLength) throw errors.invalidParameter(`Parameter ${name} is too long.`);
  return value;
}

export interface AttributeInput {
  Name: string;
  Value: string;
}

/** `[{Name, Value}]` as the admin calls send user attributes. */
export function attributeList(body: JsonObject, field: string): AttributeInput[] {
  const value = body[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw errors.serialization();
  if (value.length > 100) throw invalid(field, 'Member must have length less than or equal to 100');
  return value.map((entry) => {
    if (typeof entry !== 'object' || entry === null) throw errors.serialization();
    const name = requireString(entry as JsonObject, 'Name', { max: 32, pattern: /^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u });
    const attributeValue = optionalString(entry as JsonObject, 'Value', { min: 0, max: 2048 }) ?? '';
    return { Name: name, Value: attributeValue };
  });
}
