// A ZIP archive of a few files made in memory, with Node's own zlib (deflate and CRC-32): what the back office hands
// over as one download (a person's data and its files). No ZIP64, so each file and the whole stay under 4 GiB, far
// above what an application holds (its documents are a few megabytes each).
import { crc32, deflateRawSync } from 'node:zlib';

export interface ArchiveEntry {
  /** The path inside the archive, `/`-separated. */
  name: string;
  bytes: Buffer;
}

const LIMIT = 0xffff_ffff;
/** Bit 11: the names are UTF-8. */
const UTF8_NAMES = 0x0800;
const DEFLATE = 8;

/** 1980-01-01 00:00 in MS-DOS time and date: the entries carry no time of their own (the JSON says when). */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

export function zipArchive(entries: ArchiveEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const packed = deflateRawSync(entry.bytes);
    const crc = crc32(entry.bytes);
    if (entry.bytes.length >= LIMIT || packed.length >= LIMIT || offset >= LIMIT) throw new Error(`${entry.name} is too large for a ZIP archive without ZIP64`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(DEFLATE, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(entry.bytes.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(UTF8_NAMES, 8);
    header.writeUInt16LE(DEFLATE, 10);
    header.writeUInt16LE(DOS_TIME, 12);
    header.writeUInt16LE(DOS_DATE, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(packed.length, 20);
    header.writeUInt32LE(entry.bytes.length, 24);
    header.writeUInt16LE(name.length, 28);
    // Extra field, comment, disk, internal and external attributes: none.
    header.writeUInt32LE(offset, 42);
    parts.push(local, name, packed);
    central.push(header, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}
