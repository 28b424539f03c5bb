/** @typedef {import("./publint-check.mjs").Finding} Finding */
/**
 * @typedef {object} PackageReport
 * @property {string} label The package's name and version, or its folder when it could not be packed.
 * @property {string} dir The package folder, relative to the working directory.
 * @property {number} fileCount Files in the tarball.
 * @property {Finding[]} findings
 */

const ORDER = ["error", "warning", "suggestion", "accepted"];

/** @param {Finding[]} findings @param {string} level */
const count = (findings, level) => findings.filter((finding) => finding.level === level).length;

/**
 * Whether a report fails the check: an error, or a warning under `--strict`.
 *
 * @param {PackageReport} report
 * @param {boolean} strict
 */
export function fails(report, strict) {
  return count(report.findings, "error") > 0 || (strict && count(report.findings, "warning") > 0);
}

/**
 * The lines printed for one package: a headline, then its findings, errors first.
 *
 * @param {PackageReport} report
 * @param {boolean} strict
 * @returns {string}
 */
export function formatPackage(report, strict) {
  const { findings } = report;
  const status = fails(report, strict) ? "FAIL" : "ok";
  const tally = `${count(findings, "error")} errors, ${count(findings, "warning")} warnings`;
  const head = `${status.padEnd(4)} ${report.label} (${report.dir}): ${report.fileCount} files, ${tally}`;
  const sorted = [...findings].sort((a, b) => ORDER.indexOf(a.level) - ORDER.indexOf(b.level));
  const lines = sorted.map(
    (finding) => `       ${finding.level.padEnd(10)} ${finding.tool.padEnd(8)} ${finding.message}`,
  );
  return [head, ...lines].join("\n");
}

/**
 * The closing summary: how many packages passed, and which failed with how many errors.
 *
 * @param {PackageReport[]} reports
 * @param {boolean} strict
 * @returns {string}
 */
export function formatSummary(reports, strict) {
  const failed = reports.filter((report) => fails(report, strict));
  if (failed.length === 0) return `All ${reports.length} packages are publishable.`;
  const names = failed.map(
    (report) =>
      `  ${report.label}: ${count(report.findings, "error")} errors, ${count(report.findings, "warning")} warnings`,
  );
  return [`${failed.length} of ${reports.length} packages are not publishable:`, ...names].join("\n");
}
