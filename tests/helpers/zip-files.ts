/**
 * ZIP archives written by hand for bulk listing's tests (decision 057): ordinary ones, and the
 * hostile ones no honest tool writes (a name that leaves the ZIP, a backslash, a size that lies,
 * an encrypted entry), which is why this is not a library. Local headers and the central
 * directory say the same, so a reader that trusts either is tested alike.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import sharp from 'sharp';

export type ZipEntry = {
  /** The name as stored, bytes and all (`../evil.jpg`, `a\\b.jpg`); a folder ends with `/`. */
  name: string | Buffer;
  data?: Buffer;
  /** Deflated (method 8) or stored as is (method 0). Deflated by default. */
  method?: 'deflated' | 'stored';
  /** The unpacked size the entry declares, when it lies; its true size otherwise. */
  declaredSize?: number;
  /** Marked encrypted (general purpose flag bit 0); its bytes are left as they are. */
  encrypted?: boolean;
};

const UTF8_NAMES = 0x0800;
const ENCRYPTED = 0x0001;

/** The bytes of a ZIP of these entries, in this order. */
export function zipOf(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.isBuffer(entry.name) ? entry.name : Buffer.from(entry.name, 'utf8');
    const data = entry.data ?? Buffer.alloc(0);
    const method = entry.method === 'stored' ? 0 : 8;
    const packed = method === 8 ? deflateRawSync(data) : data;
    const flags = UTF8_NAMES | (entry.encrypted ? ENCRYPTED : 0);
    const size = entry.declaredSize ?? data.length;
    const crc = crc32(data);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A small real photo of one colour, as a phone's camera would not take it but a decoder reads it. */
export function photoOf(
  format: 'jpeg' | 'png' | 'webp',
  colour: { r: number; g: number; b: number } = { r: 200, g: 40, b: 40 },
): Promise<Buffer> {
  return sharp({ create: { width: 32, height: 24, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
}
