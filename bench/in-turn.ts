/**
 * The servers in the order they take round `round`: each round starts one further along, so that
 * none always runs first (after the previous scenario's writes, their vacuum and WAL) or last.
 */
export function inTurn<T>(servers: readonly T[], round: number): T[] {
  const shift = (round - 1) % Math.max(1, servers.length);
  return [...servers.slice(shift), ...servers.slice(0, shift)];
}
