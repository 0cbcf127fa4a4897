import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { Engine } from "../src/index.js";

/** A fresh temp folder, removed after the test file. */
export function tempDir(prefix = "engine-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `files` (relative path → content) under `root`. */
export function writeFiles(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

/** A small multilingual corpus with the identifier classes the engine must find. */
export const SMALL_CORPUS: Record<string, string> = {
  "en/realtime.md":
    "# Real-time sync\n\nChanges reach every device in real-time, usually within seconds.\n\n## Conflicts\n\nWhen two people edit the same file, the later save wins and a conflict copy is kept.",
  "en/models.md": "# Model support\n\nThe assistant runs on GPT-4 and falls back to a smaller model when the quota is used.",
  "en/decisions/dec-0054.md":
    "# DEC-0054: Shorter trash retention\n\nThe Free plan keeps deleted files for 30 days. This record supersedes DEC-0047.",
  "en/decisions/dec-0047.md": "# DEC-0047: Trash retention\n\nAll plans keep deleted files for 90 days.",
  "en/config.md":
    "# Configuration file\n\nSettings live in config.yaml next to the client. The key max_parallel_uploads limits uploads; maxRetryCount sets retries. See src/index.ts and version v1.2.3. Write to privacy@tessera.example or open https://status.tessera.example/incidents.",
  "en/billing.md":
    "# Cancel your subscription\n\nYou can cancel your subscription at any time in Settings. Cancelling stops the next renewal; files are kept.",
  "en/upload.md": "# Uploading files\n\nUploads continue in the background. Large uploads are split into parts.",
  "de/kuendigung.md":
    "# Kündigung\n\nSie können Ihr Abonnement jederzeit kündigen. Die Kündigung wird zum Ende des Abrechnungszeitraums wirksam.",
  "de/groesse.md": "# Speichergröße\n\nDie Größe Ihres Speichers hängt vom Tarif ab. Straße und Schlüssel sind hier nur Beispiele.",
  "fr/resiliation.md": "# Résiliation de l'abonnement\n\nVous pouvez résilier votre abonnement à tout moment depuis les paramètres.",
  "it/disdetta.md": "# Disdetta dell'abbonamento\n\nPuoi disdire il tuo abbonamento in qualsiasi momento dalle impostazioni.",
  "zh/sync.md": "# 同步客户端\n\n同步客户端会在后台上传文件。取消订阅后文件仍然保留。",
  "ja/sync.md":
    "# 同期クライアント\n\n同期クライアントはバックグラウンドでファイルをアップロードします。サブスクリプションを解約してもファイルは残ります。",
  "ko/sync.md": "# 동기화 클라이언트\n\n동기화 클라이언트는 백그라운드에서 파일을 업로드합니다. 구독을 해지해도 파일은 유지됩니다.",
};

/**
 * An engine over SMALL_CORPUS, built before the file's tests and closed after them.
 * `setup.engine` is valid inside tests; `setup.dir` is the temp folder (corpus in `corpus/`).
 */
export function smallCorpusEngine(): { readonly engine: Engine; readonly dir: string } {
  const dir = tempDir();
  let engine: Engine | undefined;
  beforeAll(async () => {
    writeFiles(join(dir, "corpus"), SMALL_CORPUS);
    engine = Engine.open(join(dir, "index.db"), { create: true });
    await engine.index(join(dir, "corpus"));
  });
  afterAll(() => engine?.close());
  return {
    dir,
    get engine(): Engine {
      if (!engine) throw new Error("smallCorpusEngine: used outside a test");
      return engine;
    },
  };
}
