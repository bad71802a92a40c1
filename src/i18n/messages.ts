import type { MessageDescriptor } from 'react-intl';

/**
 * A screen's messages as plain descriptors. react-intl's `defineMessages` types each message's values from
 * its text, which rejects rich values (a link, a <strong>) and unions of messages; these descriptors take
 * any values, and the locale-file test still finds every id.
 */
export function describeMessages<K extends string>(messages: Record<K, MessageDescriptor & { id: string; defaultMessage: string }>) {
  return messages as Record<K, MessageDescriptor>;
}
