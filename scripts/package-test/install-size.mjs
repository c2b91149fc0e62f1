/**
 * The size of a project's install as a user meets it: the bytes of every file under node_modules/
 * (apparent sizes, symbolic links not followed) and the number of packages npm installed there (the
 * entries of its hidden lockfile, node_modules/.package-lock.json).
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Apparent bytes of the files under `folder` (what the tarballs unpacked to), and its disk usage as `du` counts it. */
function folderBytes(folder) {
  let bytes = 0;
  let disk = lstatSync(folder).blocks * 512;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      const inner = folderBytes(path);
      bytes += inner.bytes;
      disk += inner.disk;
    } else {
      const stats = lstatSync(path);
      if (entry.isFile()) bytes += stats.size;
      disk += stats.blocks * 512;
    }
  }
  return { bytes, disk };
}

/**
 * `{ bytes, disk, packages, largest }` of `project`'s node_modules: file bytes, disk usage, packages, and
 * the five heaviest top-level packages by file bytes.
 */
export function installSize(project) {
  const modules = join(project, 'node_modules');
  const lock = JSON.parse(readFileSync(join(modules, '.package-lock.json'), 'utf8'));
  const packages = Object.entries(lock.packages).filter(
    ([path, entry]) => path.startsWith('node_modules/') && entry.link !== true,
  ).length;
  const tops = [];
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const names = entry.name.startsWith('@')
      ? readdirSync(join(modules, entry.name)).map((name) => `${entry.name}/${name}`)
      : [entry.name];
    for (const name of names) tops.push({ name, bytes: folderBytes(join(modules, name)).bytes });
  }
  tops.sort((a, b) => b.bytes - a.bytes);
  return { ...folderBytes(modules), packages, largest: tops.slice(0, 5) };
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

/** `93.4 MB of files (168.0 MB on disk), 341 packages (largest: ...)`: megabytes of 10^6 bytes, as `du --si`. */
export function describeSize({ bytes, disk, packages, largest }) {
  const heaviest = largest.map(({ name, bytes: size }) => `${name} ${mb(size)}`).join(', ');
  return `${mb(bytes)} of files (${mb(disk)} on disk), ${packages} packages (largest: ${heaviest})`;
}
