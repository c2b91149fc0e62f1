/**
 * The bundle's three files in one folder: `golive.html` (the reviewer's page), `golive.json` (the data,
 * which `ofkit golive verify` reads back) and `golive.xml` (JUnit, for CI).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_FORMAT, type GoliveBundle } from './bundle-data.js';
import { bundleHtml } from './bundle-html.js';
import { bundleJunit } from './bundle-junit.js';

export const BUNDLE_FILES = { html: 'golive.html', json: 'golive.json', junit: 'golive.xml' } as const;

/** Writes the bundle into `folder` (created when missing); returns the paths written. */
export function writeBundle(folder: string, bundle: GoliveBundle): string[] {
  mkdirSync(folder, { recursive: true });
  const files: [string, string][] = [
    [BUNDLE_FILES.html, bundleHtml(bundle)],
    [BUNDLE_FILES.json, `${JSON.stringify(bundle, null, 2)}\n`],
    [BUNDLE_FILES.junit, bundleJunit(bundle)],
  ];
  return files.map(([name, content]) => {
    const path = join(folder, name);
    writeFileSync(path, content);
    return path;
  });
}

/** A folder that holds no bundle this version reads. */
export class BundleError extends Error {
  override name = 'BundleError';
}

/** The bundle of `folder` (its `golive.json`). */
export function readBundle(folder: string): GoliveBundle {
  const path = join(folder, BUNDLE_FILES.json);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new BundleError(`no go-live bundle in ${folder}: ${path} cannot be read`);
  }
  let bundle: GoliveBundle;
  try {
    bundle = JSON.parse(text) as GoliveBundle;
  } catch {
    throw new BundleError(`${path} is not JSON`);
  }
  if (bundle?.format !== BUNDLE_FORMAT)
    throw new BundleError(`${path} is not a ${BUNDLE_FORMAT} bundle (format ${String(bundle?.format)})`);
  return bundle;
}
