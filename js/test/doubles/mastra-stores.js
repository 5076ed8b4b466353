// The Mastra adapter over DoubleMastraVector, as modules tinymemory-serve
// serves (MODULE#EXPORT) for the binary's verdict in mastra.test.js.
import { MastraVectorAdapter } from "../../dist/adapters/mastra.js";
import { DoubleMastraVector } from "./mastra-vector.js";

/** A conforming store: the adapter over the double without faults. */
export const plain = () => new MastraVectorAdapter(() => new DoubleMastraVector(), { independentStores: true });

/** LibSQLVector's fault: a zero vector is never answered. */
export const dropsZero = () => new MastraVectorAdapter(() => new DoubleMastraVector({ dropsZero: true }), { independentStores: true });

/** A store answering every hit without a score (`score: undefined`, LangChain.js's LanceDB's fault). */
export const unscored = () => new MastraVectorAdapter(() => new DoubleMastraVector({ answers: () => undefined }), { independentStores: true });
