import type { FastifyInstance } from 'fastify';

/** A multipart/form-data body with one file, as a browser's FormData sends it. */
export function multipartFile(
  field: string,
  filename: string,
  bytes: Buffer,
  type = 'application/octet-stream',
) {
  const boundary = `----phone-market-${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A bulk upload's multipart body (issue 35): the files `csv` and `zip`, either left out when null. */
export function bulkFilesBody(csv: Buffer | null, zip: Buffer | null) {
  const boundary = `----phone-market-${Math.random().toString(16).slice(2)}`;
  const part = (field: string, filename: string, type: string, bytes: Buffer) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      bytes,
      Buffer.from('\r\n'),
    ]);
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      ...(csv ? [part('csv', 'phones.csv', 'text/csv', csv)] : []),
      ...(zip ? [part('zip', 'photos.zip', 'application/zip', zip)] : []),
      Buffer.from(`--${boundary}--\r\n`),
    ]),
  };
}

/** Posts `bytes` to the image host as the browser does (field `image`), with `headers` (a bearer). */
export function uploadPhoto(
  app: FastifyInstance,
  headers: Record<string, string>,
  bytes: Buffer,
  filename = 'phone.jpg',
  type = 'image/jpeg',
) {
  const body = multipartFile('image', filename, bytes, type);
  return app.inject({
    method: 'POST',
    url: '/api/images',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

/** A photo stored by the image host for `headers`' seller: its URL, as a listing names it. */
export async function storedPhoto(
  app: FastifyInstance,
  headers: Record<string, string>,
  background = '#468',
): Promise<string> {
  const { default: sharp } = await import('sharp');
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .jpeg()
    .toBuffer();
  const res = await uploadPhoto(app, headers, jpeg);
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json().data.url;
}
