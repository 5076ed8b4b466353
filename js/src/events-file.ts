/**
 * The lines of a file another process appends to, read as it grows: the
 * event stream of a run (`run --events PATH`), which the binary renames
 * into place once the driver answered and then writes a line at a time.
 */

import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

const CHUNK = 64 * 1024;

/** The file at a path, read from where the last read stopped; whole lines only, UTF-8 split across reads kept whole. */
export class EventsFile {
  private fd: number | null = null;
  private readonly decoder = new StringDecoder("utf8");
  private pending = "";
  private readonly buffer = Buffer.alloc(CHUNK);

  constructor(private readonly path: string) {}

  /** The whole lines written since the last call; none while the file does not exist yet. */
  lines(): string[] {
    if (this.fd === null) {
      try {
        this.fd = openSync(this.path, "r");
      } catch {
        return [];
      }
    }
    let n: number;
    while ((n = readSync(this.fd, this.buffer, 0, CHUNK, null)) > 0) this.pending += this.decoder.write(this.buffer.subarray(0, n));
    const lines = this.pending.split("\n");
    this.pending = lines.pop() as string;
    return lines;
  }

  /** Closes the file; the last line when it had no newline. */
  close(): string[] {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    const rest = this.pending + this.decoder.end();
    this.pending = "";
    return rest === "" ? [] : [rest];
  }
}
