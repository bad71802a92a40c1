// pdf-lib inflates a PDF's object and cross-reference streams whole as it parses them, with no bound: each of
// its decoders (Flate, LZW, run-length, ASCII85, hex, chained as the file says) doubles a buffer until its stream
// ends, so a file of a few kilobytes, compressed twice over, inflates to gigabytes on the main thread. This
// counts what the decoders grow to where every one of them grows (DecodeStream's ensureBuffer), against a budget
// given to the work run within `withinInflationBudget` (its async calls included); elsewhere pdf-lib is unchanged.
import { AsyncLocalStorage } from 'node:async_hooks';
import DecodeStream from 'pdf-lib/cjs/core/streams/DecodeStream';

/** Thrown by a decoder that would grow past what is left of its budget. */
class InflationBudgetSpent extends Error {
  constructor(budgetBytes: number) {
    super(`the PDF's streams inflate past ${budgetBytes} bytes`);
  }
}

interface Budget {
  total: number;
  remaining: number;
}

const budgets = new AsyncLocalStorage<Budget>();

interface Growing {
  buffer: Uint8Array;
  ensureBuffer(requested: number): Uint8Array;
}

/** What each decoder has been counted for so far: the bytes it asked room for when it last grew. */
const counted = new WeakMap<Growing, number>();

const decoders = DecodeStream.prototype as unknown as Growing;
const grow = decoders.ensureBuffer;
decoders.ensureBuffer = function ensureBudgetedBuffer(this: Growing, requested: number): Uint8Array {
  const budget = budgets.getStore();
  // Counted when the buffer must grow (it then at most doubles): so no buffer passes twice the budget.
  if (budget && requested > this.buffer.byteLength) {
    budget.remaining -= requested - (counted.get(this) ?? 0);
    counted.set(this, requested);
    if (budget.remaining < 0) throw new InflationBudgetSpent(budget.total);
  }
  return grow.call(this, requested);
};

/** Runs `work` with at most `bytes` inflated by pdf-lib's decoders in all, whatever it awaits meanwhile. */
export function withinInflationBudget<T>(bytes: number, work: () => Promise<T>): Promise<T> {
  return budgets.run({ total: bytes, remaining: bytes }, work);
}
