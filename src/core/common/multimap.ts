/** Appends `values` to the list `map` holds for `key`, starting one when there is none (in place: linear however long the list grows). */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, ...values: V[]): void {
  const list = map.get(key);
  if (list) list.push(...values);
  else map.set(key, values);
}
