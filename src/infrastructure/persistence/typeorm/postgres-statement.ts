/** A named statement: node-postgres prepares it once per connection, then only binds and executes it. */
export interface Statement {
  name: string;
  text: string;
  /** `array`: rows as arrays, cheaper for node-postgres to build when there are thousands. */
  rowMode?: 'array';
}

export const statement = (name: string, text: string, rowMode?: 'array'): Statement => ({
  name: `article_repository_${name}`,
  text,
  ...(rowMode && { rowMode }),
});
