/** Passage text read back from the index: for rerankers, feedback, snippets and `ask`'s sources. */
import type { Statement } from "better-sqlite3";
import type { Db } from "./database.js";

export interface PassageText {
  heading: string;
  text: string;
}

/** A passage of a document, with its position `seq` (`docId#seq`). */
export interface DocumentPassage extends PassageText {
  seq: number;
}

export class PassageStore {
  private readonly byRowId: Statement<[number], PassageText>;
  private readonly byDocument: Statement<[string, string], DocumentPassage>;

  constructor(db: Db) {
    this.byRowId = db.prepare("SELECT heading, text FROM passages WHERE id = ?") as Statement<[number], PassageText>;
    this.byDocument = db.prepare(
      "SELECT p.seq, p.heading, p.text FROM passages p JOIN documents d ON d.id = p.document_id WHERE d.collection = ? AND d.path = ? ORDER BY p.seq",
    ) as Statement<[string, string], DocumentPassage>;
  }

  /** The passage with this rowid (one the catalog of the same index state named). */
  text(rowId: number): PassageText {
    return this.byRowId.get(rowId)!;
  }

  /** A document's passages in order. */
  ofDocument(collection: string, docId: string): DocumentPassage[] {
    return this.byDocument.all(collection, docId);
  }
}
