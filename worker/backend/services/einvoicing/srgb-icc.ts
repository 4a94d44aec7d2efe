/**
 * An sRGB ICC profile (version 2.1, a display profile of the matrix/TRC kind), built from the
 * numbers IEC 61966-2-1 publishes, for the tax documents' PDF/A OutputIntent. Built here rather
 * than copied from a file: the free sRGB profiles on hand come with licences (Ghostscript's is
 * AGPL) that a document handed to every shopper should not carry, and the profile is a few tags of
 * public numbers. Version 2 because every PDF/A reader takes it (PDF/A-1 readers refuse v4).
 *
 * The tags are those the ICC v2 specification (ICC.1, v2.4) requires of an RGB display profile: the description, the
 * copyright, the media white point (D65, the display's own, as the widely used v2 sRGB profiles
 * give it), the three colorants (sRGB's primaries adapted to the D50 connection space by the
 * Bradford transform) and one tone curve shared by the three channels (sRGB's piecewise curve as a
 * 1024-entry table).
 */

/** s15Fixed16Number. */
const fixed = (v: number) => Math.round(v * 65536);

const D50 = [0.9642, 1.0, 0.8249];
const D65 = [0.9505, 1.0, 1.089];
const RED = [0.4360747, 0.2225045, 0.0139322];
const GREEN = [0.3850649, 0.7168786, 0.0971045];
const BLUE = [0.1430804, 0.0606169, 0.7141733];
const DESCRIPTION = "sRGB IEC61966-2.1";
const COPYRIGHT = "No copyright, use freely";

class Bytes {
  private readonly parts: number[] = [];
  u8(v: number) {
    this.parts.push(v & 0xff);
    return this;
  }
  u16(v: number) {
    return this.u8(v >>> 8).u8(v);
  }
  u32(v: number) {
    return this.u16(v >>> 16).u16(v & 0xffff);
  }
  ascii(s: string) {
    for (const ch of s) this.u8(ch.charCodeAt(0));
    return this;
  }
  zeros(n: number) {
    for (let i = 0; i < n; i++) this.u8(0);
    return this;
  }
  /** Pads to a multiple of four bytes, as every tag's data starts on one. */
  align() {
    while (this.parts.length % 4) this.u8(0);
    return this;
  }
  get length() {
    return this.parts.length;
  }
  bytes() {
    return Uint8Array.from(this.parts);
  }
}

const xyzTag = (xyz: number[]) => {
  const b = new Bytes().ascii("XYZ ").zeros(4);
  for (const v of xyz) b.u32(fixed(v));
  return b.bytes();
};

/** textDescriptionType: the ASCII description, then empty Unicode and ScriptCode descriptions. */
const descTag = (text: string) =>
  new Bytes()
    .ascii("desc")
    .zeros(4)
    .u32(text.length + 1)
    .ascii(text)
    .u8(0)
    .zeros(4 + 4) // Unicode language code and count
    .zeros(2 + 1 + 67) // ScriptCode code, count and its fixed 67 bytes
    .bytes();

const textTag = (text: string) => new Bytes().ascii("text").zeros(4).ascii(text).u8(0).bytes();

/** sRGB's transfer function, encoded value to linear light. */
const toLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);

const curveTag = (entries: number) => {
  const b = new Bytes().ascii("curv").zeros(4).u32(entries);
  for (let i = 0; i < entries; i++) b.u16(Math.round(toLinear(i / (entries - 1)) * 65535));
  return b.bytes();
};

let cached: Uint8Array | null = null;

/** The profile's bytes (built once per isolate). */
export function srgbIccProfile(): Uint8Array {
  if (cached) return cached;
  const curve = curveTag(1024);
  // Signature and data; the three tone curves point at one copy of the curve.
  const tags: [string, Uint8Array][] = [
    ["desc", descTag(DESCRIPTION)],
    ["cprt", textTag(COPYRIGHT)],
    ["wtpt", xyzTag(D65)],
    ["rXYZ", xyzTag(RED)],
    ["gXYZ", xyzTag(GREEN)],
    ["bXYZ", xyzTag(BLUE)],
    ["rTRC", curve],
    ["gTRC", curve],
    ["bTRC", curve],
  ];
  const tableEnd = 128 + 4 + tags.length * 12;
  const data = new Bytes();
  const places = new Map<Uint8Array, number>();
  const entries = tags.map(([sig, bytes]) => {
    let offset = places.get(bytes);
    if (offset === undefined) {
      data.align();
      offset = tableEnd + data.length;
      places.set(bytes, offset);
      for (const byte of bytes) data.u8(byte);
    }
    return { sig, offset, size: bytes.length };
  });
  data.align();
  const size = tableEnd + data.length;

  const out = new Bytes()
    .u32(size)
    .zeros(4) // preferred CMM: none
    .u32(0x02100000) // version 2.1
    .ascii("mntr")
    .ascii("RGB ")
    .ascii("XYZ ")
    .u16(2000) // creation date and time: fixed, so the profile's bytes never change
    .u16(1)
    .u16(1)
    .zeros(6)
    .ascii("acsp")
    .zeros(4) // platform
    .zeros(4) // flags
    .zeros(4 + 4) // device manufacturer and model
    .zeros(8) // device attributes
    .u32(0); // rendering intent: perceptual
  for (const v of D50) out.u32(fixed(v)); // the connection space's illuminant
  out.zeros(4); // profile creator
  out.zeros(128 - out.length); // the profile ID (v4 only) and reserved bytes
  out.u32(tags.length);
  for (const e of entries) out.ascii(e.sig).u32(e.offset).u32(e.size);
  const header = out.bytes();
  const body = data.bytes();
  const profile = new Uint8Array(size);
  profile.set(header, 0);
  profile.set(body, header.length);
  cached = profile;
  return profile;
}
