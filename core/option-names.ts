/**
 * Refuses option names an entry does not take: a caller without a type check (plain JavaScript, a config read
 * from JSON) would otherwise see a misspelt option ignored without a word.
 * @throws TypeError naming the unknown options and listing the known ones
 * @example checkOptionNames('createMockServer', { sed: 7 }, ['seed']) // throws: unknown option "sed"; ...
 */
export function checkOptionNames(entry: string, options: object, known: readonly string[]): void {
  const unknown = Object.keys(options).filter((name) => !known.includes(name))
  if (unknown.length === 0) return
  const names = unknown.map((name) => JSON.stringify(name)).join(', ')
  throw new TypeError(
    `${entry}: unknown option${unknown.length > 1 ? 's' : ''} ${names}; the options are ${known.join(', ')}.`,
  )
}
