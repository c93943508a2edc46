/** node-postgres's own value serialiser (what it sends for a parameter), which its types leave out. */
declare module "pg/lib/utils.js" {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
