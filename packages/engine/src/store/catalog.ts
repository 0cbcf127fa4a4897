/**
 * An in-memory view of documents and passages, so retrieval can map FTS5 rowids and vector rows
 * to documents and apply collection/language filters without joining inside the MATCH query
 * (a join there makes SQLite re-run the MATCH per row). Reloaded when the index changes.
 */
import { baseLanguage } from "../ingest/language-path.js";
import type { DocumentValidity } from "../ingest/validity.js";
import type { Db } from "./database.js";

export interface CatalogDocument {
  /** Row id in `documents`. */
  rowId: number;
  collection: string;
  /** The document id users see. */
  docId: string;
  title: string;
  language: string | null;
  /** Present when the document declares validFrom, validUntil or supersedes. */
  validity?: DocumentValidity;
}

export class Catalog {
  readonly documents: CatalogDocument[] = [];
  /** passage rowid → index into `documents`. */
  readonly passageDocument = new Map<number, number>();
  /** passage rowid → seq (`docId#seq`). */
  readonly passageSeq = new Map<number, number>();
  /** Base languages of the indexed documents, sorted. */
  readonly languages: string[];
  readonly collections: string[];
  /** Indexes of the documents that declare validity; empty for most indexes, which then filter nothing. */
  readonly declaringValidity: number[] = [];

  constructor(db: Db) {
    const byRowId = new Map<number, number>();
    for (const d of db
      .prepare("SELECT id, collection, path, title, language, valid_from, valid_until, supersedes FROM documents ORDER BY id")
      .all() as Array<{
      id: number;
      collection: string;
      path: string;
      title: string;
      language: string | null;
      valid_from: string | null;
      valid_until: string | null;
      supersedes: string | null;
    }>) {
      byRowId.set(d.id, this.documents.length);
      const doc: CatalogDocument = { rowId: d.id, collection: d.collection, docId: d.path, title: d.title, language: d.language };
      if (d.valid_from !== null || d.valid_until !== null || d.supersedes !== null) {
        doc.validity = {
          ...(d.valid_from !== null ? { validFrom: d.valid_from } : {}),
          ...(d.valid_until !== null ? { validUntil: d.valid_until } : {}),
          supersedes: d.supersedes === null ? [] : (JSON.parse(d.supersedes) as string[]),
        };
        this.declaringValidity.push(this.documents.length);
      }
      this.documents.push(doc);
    }
    for (const p of db.prepare("SELECT id, document_id AS doc, seq FROM passages").raw().iterate() as IterableIterator<
      [number, number, number]
    >) {
      this.passageDocument.set(p[0], byRowId.get(p[1])!);
      this.passageSeq.set(p[0], p[2]);
    }
    this.languages = [...new Set(this.documents.flatMap((d) => (d.language ? [baseLanguage(d.language)] : [])))].sort();
    this.collections = [...new Set(this.documents.map((d) => d.collection))].sort();
  }

  passageId(passageRowId: number): string {
    const doc = this.documents[this.passageDocument.get(passageRowId)!]!;
    return `${doc.docId}#${this.passageSeq.get(passageRowId)}`;
  }

  /** A predicate over document indexes for the given filters, or undefined when there are none. */
  filter(options: { collection?: string | undefined; language?: string | undefined }): ((docIndex: number) => boolean) | undefined {
    const { collection, language } = options;
    if (collection === undefined && language === undefined) return undefined;
    const lang = language?.toLowerCase();
    return (i) => {
      const d = this.documents[i]!;
      if (collection !== undefined && d.collection !== collection) return false;
      if (lang !== undefined && (d.language === null || (d.language !== lang && baseLanguage(d.language) !== lang))) return false;
      return true;
    };
  }
}
