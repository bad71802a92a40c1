/** Where the identity client keeps its tokens instead of localStorage: tokens never reach persisted browser state. */
export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    setItem: (key: string, value: string) => void items.set(key, value),
    getItem: (key: string) => items.get(key) ?? null,
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
  };
}
