/**
 * What a store's method declares in its source: the parameters it names.
 * LangChain.js stores differ in what `delete` and
 * `similaritySearchVectorWithScore` take, and the adapters read it to tell
 * a store's limit from its fault.
 */

/**
 * The names of the parameters `method`'s source declares, in order (a
 * default's value and a rest parameter's dots dropped), or null when they
 * cannot be read: a rest parameter, which may take anything. A bound or
 * native function declares none (`[]`).
 */
export function parametersOf(method: Function): string[] | null {
  const source = Function.prototype.toString.call(method);
  const list = source.slice(source.indexOf("(") + 1, source.indexOf(")"));
  if (list.includes("...")) return null;
  return list
    .split(",")
    .map((p) => p.split("=")[0]!.trim())
    .filter((p) => p !== "");
}

/**
 * Whether the store's `delete` can take `{ ids }`: its source names `ids`.
 * A delete that takes another parameter only (HNSWLib's `directory`,
 * VoyVectorStore's `deleteAll`) throws for a reason of its own when given
 * ids. A bound or native `delete` names nothing, so it reads as taking no
 * ids too.
 */
export function deletesByIds(store: { delete: Function }): boolean {
  return /\bids\b/.test(Function.prototype.toString.call(store.delete));
}
