/**
 * Bulk listing (issue 35, decision 057): a seller sends a CSV of 500 phones and a ZIP of their
 * 1,000 photos (two each, every one a distinct phone-camera-like JPEG), waits for the preview,
 * lists the rows and waits until they are listed, through the real server's HTTP calls. Reported:
 * the time to send the files, to the preview (the photos checked, stored in their variants and
 * hashed), and to the last row listed; and the server's peak memory over the whole upload (its
 * resident set's high-water mark, reset before the upload, so the demo data's start is not in it).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { toCsv } from '../src/server/csv';
import { BULK_COLUMNS } from '../src/shared/bulk';
import { syntheticPhoto } from '../tests/helpers/synthetic-photos';
import { zipOf } from '../tests/helpers/zip-files';
import { withAppServer } from './lib/app-server';
import type { Figure } from './lib/report';

const SECTION = 'Bulk listing (issue 35)';
const ROWS = 500;
/** A phone camera's photo as sellers send them: about 1,000 px wide, a few hundred KB. */
const PHOTO_WIDTH = 1000;

/** An IMEI with its Luhn check digit, unique per row. */
function imei(n: number): string {
  const body = `35${String(n).padStart(12, '0')}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d *= 2;
    sum += d > 9 ? d - 9 : d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

async function account(origin: string): Promise<Record<string, string>> {
  const email = `bulk-bench-${Date.now()}@bench.example`;
  const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, name: 'Bench Shop', password: 'Bench-Shop-2026!' }),
  });
  if (!signUp.ok) throw new Error(`sign-up: ${signUp.status} ${await signUp.text()}`);
  const cookie = signUp.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = { 'content-type': 'application/json', origin, cookie };
  const saved = await fetch(`${origin}/api/users`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, name: 'Bench Shop', type: 'seller' }),
  });
  if (!saved.ok) throw new Error(`users: ${saved.status} ${await saved.text()}`);
  const token = await fetch(`${origin}/api/jwt?email=${encodeURIComponent(email)}`, { headers });
  const { accessToken } = (await token.json()) as { accessToken: string };
  return { authorization: `bearer ${accessToken}` };
}

/** The server's resident set now and its high-water mark since the last reset, in MB. */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

export async function benchBulk(): Promise<Figure[]> {
  const photos = await Promise.all(
    Array.from({ length: ROWS * 2 }, (_, i) => syntheticPhoto(900_000 + i, PHOTO_WIDTH)),
  );
  const zip = zipOf(photos.map((data, i) => ({ name: `phone-${i}.jpg`, data, method: 'stored' })));
  const rows = Array.from({ length: ROWS }, (_, i) => [
    'Samsung',
    `Galaxy Bench ${i + 1}`,
    '8 GB',
    '128 GB',
    'Black',
    '4,500 mAh',
    '90%',
    imei(i + 1),
    `$${300 + (i % 200)}`,
    '$799',
    '14 months',
    'Good',
    '+1 512 555 0100',
    'Austin, TX',
    'Unlocked, tested, with a charger.',
    `phone-${2 * i}.jpg|phone-${2 * i + 1}.jpg`,
  ]);
  const csv = Buffer.from(`\uFEFF${toCsv(BULK_COLUMNS, rows)}`);
  return withAppServer({ seedDemo: false }, async (origin, pid) => {
    const bearer = await account(origin);
    const before = await memoryOf(pid);
    // The high-water mark from here on (Linux: 5 resets VmHWM).
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    let peakRss = before.rss;
    const sampler = setInterval(() => {
      void memoryOf(pid).then((m) => {
        peakRss = Math.max(peakRss, m.rss);
      });
    }, 200);
    try {
      const form = new FormData();
      form.append('csv', new Blob([new Uint8Array(csv)], { type: 'text/csv' }), 'phones.csv');
      form.append(
        'zip',
        new Blob([new Uint8Array(zip)], { type: 'application/zip' }),
        'photos.zip',
      );
      const t0 = performance.now();
      const sent = await fetch(`${origin}/api/bulk-uploads`, {
        method: 'POST',
        headers: bearer,
        body: form,
      });
      if (sent.status !== 202) throw new Error(`upload: ${sent.status} ${await sent.text()}`);
      const { id } = (await sent.json()) as { id: string };
      const t1 = performance.now();
      const until = async (status: string) => {
        for (;;) {
          const res = await fetch(`${origin}/api/bulk-uploads/${id}`, { headers: bearer });
          const upload = (await res.json()) as { status: string; message: string | null };
          if (upload.status === status) return upload;
          if (['refused', 'expired'].includes(upload.status))
            throw new Error(`upload ${upload.status}: ${upload.message}`);
          await new Promise((r) => setTimeout(r, 250));
        }
      };
      const shown = (await until('preview')) as unknown as { rowsReady: number };
      if (shown.rowsReady !== ROWS) throw new Error(`only ${shown.rowsReady} rows ready`);
      const t2 = performance.now();
      const listing = await fetch(`${origin}/api/bulk-uploads/${id}/listing`, {
        method: 'POST',
        headers: bearer,
      });
      if (listing.status !== 202) throw new Error(`listing: ${listing.status}`);
      const done = (await until('done')) as unknown as { rowsListed: number };
      const t3 = performance.now();
      if (done.rowsListed !== ROWS) throw new Error(`only ${done.rowsListed} rows listed`);
      const after = await memoryOf(pid);
      const mb = (zip.length / 1024 / 1024).toFixed(0);
      return [
        {
          section: SECTION,
          name: `send the CSV and the ZIP (${mb} MB, ${ROWS * 2} photos)`,
          value: (t1 - t0) / 1000,
          unit: 's',
        },
        {
          section: SECTION,
          name: 'to the preview: every photo checked, stored and hashed',
          value: (t2 - t1) / 1000,
          unit: 's',
        },
        {
          section: SECTION,
          name: `list ${ROWS} rows`,
          value: (t3 - t2) / 1000,
          unit: 's',
          note: 'each through listPhone (IMEI lock, risk rules) in a transaction with its outcome',
        },
        {
          section: SECTION,
          name: 'from sending to the last row listed',
          value: (t3 - t0) / 1000,
          unit: 's',
          note: 'one server on PGlite, the default',
        },
        {
          section: SECTION,
          name: 'server peak memory during the upload',
          value: Math.max(after.peak, peakRss),
          unit: 'MB',
          note: `resident set; ${before.rss.toFixed(0)} MB before the upload`,
        },
      ];
    } finally {
      clearInterval(sampler);
    }
  });
}
