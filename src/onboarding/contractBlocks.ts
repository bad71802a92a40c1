/**
 * What a contract is made of, in reading order: server/services/contract.ts makes the blocks (and prints them as
 * the PDF), `GET contract/text` answers them, and /docu-sign shows them.
 */
export const CONTRACT_BLOCK_KINDS = ['title', 'notice', 'heading', 'subheading', 'paragraph', 'field'] as const;

export type ContractBlock =
  | { kind: Exclude<(typeof CONTRACT_BLOCK_KINDS)[number], 'field'>; text: string }
  | { kind: 'field'; label: string; value: string };
