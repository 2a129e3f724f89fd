// The order a run takes its files in: the slow tier first, then integration, then unit, each in
// vitest's own order (longest first by the last run's times, else largest file first). Two
// workers share the files; a long battery or browser file left for the end of a run would keep
// one worker busy while the other has nothing left to do, where short files can fill the gaps.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const TIERS = ['/test/slow/', '/test/integration/', '/test/unit/'];

const tierOf = (file: TestSpecification) => {
  const tier = TIERS.findIndex((folder) => file.moduleId.includes(folder));
  return tier < 0 ? TIERS.length : tier;
};

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: within a tier, the base order stays.
    return (await super.sort(files)).sort((a, b) => tierOf(a) - tierOf(b));
  }
}
