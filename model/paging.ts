/**
 * The positions of one page of a list of `count` items: `offset` to `offset + limit`, cut
 * to the list (Python's `items[offset:offset + limit]` for the offsets the API accepts).
 * @example pageRange(5, 3, 10) // [3, 4]
 */
export function pageRange(count: number, offset: number, limit: number): number[] {
  const start = Math.min(offset, count)
  const end = Math.min(offset + limit, count)
  const positions: number[] = []
  for (let position = start; position < end; position++) positions.push(position)
  return positions
}
