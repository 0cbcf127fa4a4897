/**
 * Where `pnpm eval`'s Evalite server listens: a Unix socket in the run's own temp folder (a named
 * pipe on Windows), never a TCP port. The run shows no UI; the server is there only because
 * Evalite's workers reach its model cache through it (patched `runEvalite({ serverSocket })`,
 * docs/evals.md#evalites-ui-patch). A socket of the run's own cannot be taken by another run, so
 * any number of runs start together, and nothing listens on the network.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { removeOnExit } from "../../helpers/setup-db.js";

/**
 * The longest socket path used as is. A Unix socket's path must fit `sun_path`: 108 bytes on
 * Linux, 104 on macOS, terminator included; beyond it `listen` fails (ENAMETOOLONG or a cut name).
 */
export const MAX_SOCKET_PATH_BYTES = 100;

/**
 * The socket for a run whose temp folder is `workDir`: `<workDir>/evalite.sock`; when a long
 * TMPDIR makes that too long for a socket, one in a fresh folder under /tmp instead, removed
 * when the process exits (the caller removes `workDir`).
 */
export function evaliteSocketPath(workDir: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === "win32") return `\\\\.\\pipe\\evalite-${process.pid}-${workDir.replace(/[^A-Za-z0-9]/g, "").slice(-24)}`;
  const inWork = join(workDir, "evalite.sock");
  if (Buffer.byteLength(inWork) <= MAX_SOCKET_PATH_BYTES) return inWork;
  const short = mkdtempSync("/tmp/evalite-");
  removeOnExit(short);
  return join(short, "evalite.sock");
}
