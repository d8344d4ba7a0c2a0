/** The values of a map in the order of their keys. */
export function valuesByKey<T>(map: ReadonlyMap<string, T>): T[] {
  return [...map.keys()].sort().map((key) => map.get(key)!);
}

/** Appends `values` to the list `map` holds for `key`, starting one when there is none (in place: linear however long the list grows). */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, ...values: V[]): void {
  const list = map.get(key);
  if (list) list.push(...values);
  else map.set(key, values);
}
