/**
 * The campaign's baseline (issue 42): two `pnpm eval --update-baseline` runs of different datasets
 * started together on one baseline file both land — both modes' floors, both log entries — where
 * the second used to overwrite the first's work while both said it was logged. Two runs of the
 * `expansion` eval (no index of its own to build), as CI jobs start them: the shared run
 * `campaign:baseline` (test/shared-runs/configurations/campaign.ts).
 */
import type { Baseline } from "@hybrid-search/eval-gate/baseline";
import { describe, expect, it } from "vitest";
import { Campaign } from "./campaign.js";
import { RUN_TIMEOUT_MS } from "./eval-run.js";
import { sharedRun } from "./shared-runs/read.js";

const campaign = new Campaign("baseline");
const together = sharedRun("campaign:baseline");

describe("campaign: two --update-baseline runs at once", () => {
  it(
    "both land: each dataset's floors and log entry are in the file, nothing lost",
    async () => {
      const runs = await Promise.all([together.run("run 1"), together.run("run 2")]);
      const file = await together.fact<Baseline>("baseline");
      const modes = Object.keys(file.floors).sort();
      const reasons = file.log.map((l) => l.reason).sort();
      const lost = [
        ...(modes.includes("offline") ? [] : ["the first run's floors"]),
        ...(modes.includes("offline@fixtures-layout") ? [] : ["the second run's floors"]),
        ...(reasons.includes("first dataset") ? [] : ["the first run's log entry"]),
        ...(reasons.includes("second dataset") ? [] : ["the second run's log entry"]),
      ];
      for (const [i, r] of runs.entries()) {
        campaign.record({
          name: `update-baseline run ${i + 1} of 2`,
          expect: 0,
          code: r.code,
          stdout: r.stdout,
          stderr: r.stderr,
          lost: i === 0 ? lost : [],
        });
        expect(r.stdout).toMatch(/^baseline: .*floor\(s\) added.*\(logged with date, commit and reason\)$/m);
      }
      expect(modes).toEqual(["offline", "offline@fixtures-layout"]);
      expect(reasons).toEqual(["first dataset", "second dataset"]);
    },
    RUN_TIMEOUT_MS,
  );
});
