/**
 * A deterministic, offline text embedding for the adapters' examples and
 * tests: signed feature hashing, no model, no download, the same vector for
 * the same text in every process and on every machine.
 *
 * The features of a text are, for each distinct word (`words`: the
 * contract's words, lowercased), the word itself, weight 3, and each
 * character trigram of the word padded as "^word$", weight 1 (code points,
 * not UTF-16 units); a feature counts once per text. A feature is hashed
 * with 32-bit FNV-1a over "w:" or "g:" and its UTF-8 bytes: the hash's low
 * bits pick the bucket (hash mod `dimensions`), its top bit the sign. The
 * components are integers, so every dot product of two vectors is exact
 * in a double; the cosine's only rounding is its square root and division.
 * A text with no word is the zero vector (the engine's cosine then decides
 * what the score is: the suite's recall.plain_text_query asks for one).
 *
 * It implements LangChain.js's EmbeddingsInterface (embedDocuments,
 * embedQuery) structurally, so it goes where an OpenAIEmbeddings would:
 * LangGraph.js's `InMemoryStore({ index: { dims, embeddings } })` and
 * LangChain.js's `new MemoryVectorStore(embeddings)`.
 */

import { words } from "../protocol/words.js";

/** The default number of buckets. */
export const DEFAULT_DIMENSIONS = 256;
const WORD_WEIGHT = 3;

function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, "utf8")) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A deterministic hashed embedding of `dimensions` integer components. */
export class HashedEmbeddings {
  readonly dimensions: number;

  constructor({ dimensions = DEFAULT_DIMENSIONS }: { dimensions?: number } = {}) {
    if (!Number.isInteger(dimensions) || dimensions < 1) throw new RangeError(`dimensions is ${dimensions}; expected a whole number of at least 1`);
    this.dimensions = dimensions;
  }

  /** The vector of `text`: `dimensions` integers, all 0 for a text with no word. */
  embed(text: string): number[] {
    const features = new Set<string>();
    for (const word of new Set(words(text))) {
      features.add("w:" + word);
      const padded = Array.from("^" + word + "$");
      for (let i = 0; i + 3 <= padded.length; i++) features.add("g:" + padded.slice(i, i + 3).join(""));
    }
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const feature of features) {
      const h = fnv1a32(feature);
      const weight = feature.startsWith("w:") ? WORD_WEIGHT : 1;
      vector[h % this.dimensions]! += h >>> 31 ? -weight : weight;
    }
    return vector;
  }

  /** EmbeddingsInterface: the vectors of `documents`, in order. */
  async embedDocuments(documents: string[]): Promise<number[][]> {
    return documents.map((d) => this.embed(d));
  }

  /** EmbeddingsInterface: the vector of `document`. */
  async embedQuery(document: string): Promise<number[]> {
    return this.embed(document);
  }
}
